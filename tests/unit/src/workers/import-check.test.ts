import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { storeRows, type ImportLists, type ImportTarget } from '@/db/import-rows'
import { LeadkeeperDb } from '@/db/schema'
import type { ColumnMapping, ContactRecord } from '@/db/records'
import { answerChecks, checkedElsewhere } from '@/workers/import-check'
import { importWorkerCount, spawnImportWorkers, startImportWorker } from '@/workers/import-client'
import type { FromWorker, ToWorker } from '@/workers/import-protocol'
import type { ParseControl } from '@domain/read/parse'
import { issueKinds, packIssues, unpackIssues, type RowIssue } from '@domain/validation'
import { putContacts } from '../support/library'
import { allRows } from '../support/rows'
import { eachTestDatabase, type TestLists } from '../support/database'

/**
 * An import on two threads, as its two workers run it: the check (`answerChecks`) and the store
 * (`storeRows` with `checkedElsewhere`) each parse the same bytes, and talk over a real
 * MessageChannel, into a real database. What they store must be what one thread stores.
 */
const source = { fileName: 'people.csv', size: 100, encoding: 'utf-8', delimiter: ',', hasHeader: true }
const columns = ['First', 'Last', 'Website', 'LinkedIn', 'Notes']
const mapping: ColumnMapping = { first_name: 0, last_name: 1, website: 2, network_url: 3 }
const options = { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 5 }

let database: LeadkeeperDb
let lists: TestLists

eachTestDatabase((made) => ({ database, lists } = made))

/** 2,600 people with every issue the check finds: batches of 700 cross blocks of 1,000. */
const people = Array.from({ length: 2_600 }, (_, i) => {
  const n = i % 2_500
  if (n % 97 === 1) return [`F${n}`, '', `c${n}.com`, '', 'no last name']
  if (n % 89 === 2) return [`F${n}`, `L${n}`, '', '', 'no domain']
  if (n % 83 === 3) return [`F${n}`, `L${n}`, 'gmail.com', '', 'personal']
  if (n % 79 === 4) return [`F${n}`, `L${n}`, 'not a domain', '', 'malformed']
  if (n % 73 === 5) return ['', '', '', `https://www.linkedin.com/in/p${n}`, 'by profile']
  if (n === 6) return ['Kim', 'Park', 'known.io', '', 'in the library']
  return [`F${n}`, `L${n}`, `c${n}.com`, '', '']
})
const text = columns.join(',') + '\n' + people.map((row) => row.join(',')).join('\n')

async function* bytesOf(content: string) {
  const all = new TextEncoder().encode(content)
  for (let at = 0; at < all.length; at += 4_096) yield all.slice(at, at + 4_096)
}

function contact(identity: string): ContactRecord {
  return {
    id: 'n:' + identity,
    ...{ fullName: '', email: '', emailStatus: '', phone: '', jobTitle: '', seniority: '', country: '' },
    ...{ companyName: '', companyDomain: '', networkUrl: '', identity, words: [], nameLower: '' },
    ...{ emailLower: '', domainLower: '', data: {}, sources: [], firstSeenAt: 0, updatedAt: 0 },
  }
}

/** The import on two threads: both halves run, the store's result (or failure) is the run's. */
async function onTwoThreads(
  content: string,
  target: ImportTarget,
  control: ParseControl = {},
  checkLists: Pick<ImportLists, 'knownIdentities'> = lists,
) {
  const { port1, port2 } = new MessageChannel()
  const checking = answerChecks(port1, bytesOf(content), options, target, checkLists, control)
  try {
    return await storeRows(
      bytesOf(content),
      options,
      target,
      lists,
      control,
      checkedElsewhere(port2, control.signal),
    )
  } finally {
    await checking
    port1.close()
  }
}

const newList = () => lists.createList({ name: 'People', source, columns, mapping })

describe('an import on two threads', () => {
  it('stores every row with the issues and the summary one thread finds', async () => {
    await putContacts(database, [contact('kim park@known.io')])
    const one = await newList()
    const alone = await storeRows(bytesOf(text), options, { listId: one.id, mapping }, lists, {
      batchSize: 700,
    })
    const two = await newList()
    const split = await onTwoThreads(text, { listId: two.id, mapping }, { batchSize: 700 })

    expect(split).toEqual(alone)
    expect(split.parse.rows).toBe(2_600)
    // Every kind of issue is in the file, and each is stored as one thread stores it.
    for (const kind of issueKinds) expect(split.validation.counts[kind], kind).toBeGreaterThan(0)
    // The last 100 rows repeat the first 100; 4 of those have no name and domain to match by.
    expect(split.validation.counts.duplicate).toBe(96)
    expect(split.validation.counts.known).toBe(2)
    const rowsOne = await allRows(database, one.id)
    const rowsTwo = await allRows(database, two.id)
    expect(rowsTwo.map(({ index, values, issues }) => ({ index, values, issues }))).toEqual(
      rowsOne.map(({ index, values, issues }) => ({ index, values, issues })),
    )
    expect(rowsTwo.map((row) => row.values)).toEqual(people)
    expect(rowsTwo[6]!.issues).toEqual(['known'])
    expect(rowsTwo[2_506]!.issues).toEqual(['duplicate', 'known'])
    expect(rowsTwo[1]!.issues).toEqual(['missing_name'])
  })

  it('takes up an interrupted import from where it stopped, and refuses a changed file as the store worker reads it', async () => {
    const list = await newList()
    await lists.appendRows(
      list.id,
      0,
      people.slice(0, 1_400),
      people.slice(0, 1_400).map(() => []),
    )
    const soFar = await lists.importedSoFar(list.id)
    const target = { listId: list.id, mapping, resume: soFar }

    const changed = onTwoThreads(text.replace('F1399,L1399', 'F1399,Changed'), target, { batchSize: 700 })
    await expect(changed).rejects.toMatchObject({
      code: 'changed_file',
      message: expect.stringContaining('row 1,400 reads differently now'),
    })
    expect(await lists.importedSoFar(list.id)).toEqual(soFar)

    const stored = await onTwoThreads(text, target, { batchSize: 700 })
    expect(stored.validation.rows).toBe(2_600)
    expect(stored.validation.counts.duplicate).toBe(96)
    const rows = await allRows(database, list.id)
    expect(rows.map((row) => row.values)).toEqual(people)
    expect(rows[2_550]!.issues).toEqual(['duplicate'])
  })

  it("stops as the check stops: its failure is the run's, and no write is left running", async () => {
    const list = await newList()
    let asked = 0
    const failing = onTwoThreads(
      text,
      { listId: list.id, mapping },
      { batchSize: 700 },
      {
        knownIdentities: async () => {
          if (++asked === 2) throw new Error('The library could not be read')
          return new Set()
        },
      },
    )
    await expect(failing).rejects.toThrow('The library could not be read')
    // The first batch was stored; the second, never checked, was not.
    expect((await allRows(database, list.id)).length).toBe(700)
  })

  it('ends as cancelled while the store waits on a check that never answers', async () => {
    const list = await newList()
    const { port1, port2 } = new MessageChannel()
    const stop = new AbortController()
    const storing = storeRows(
      bytesOf(text),
      options,
      { listId: list.id, mapping },
      lists,
      { batchSize: 700, signal: stop.signal },
      checkedElsewhere(port2, stop.signal),
    )
    setTimeout(() => stop.abort(), 20)
    await expect(storing).rejects.toMatchObject({ code: 'cancelled' })
    port1.close()
    expect(await allRows(database, list.id)).toEqual([])
  })

  it('refuses an answer for other rows than the batch', async () => {
    const list = await newList()
    const { port1, port2 } = new MessageChannel()
    const packed = packIssues(Array.from({ length: 700 }, () => []))
    port1.postMessage({ type: 'checked', startIndex: 700, issues: packed })
    const storing = storeRows(
      bytesOf(text),
      options,
      { listId: list.id, mapping },
      lists,
      { batchSize: 700 },
      checkedElsewhere(port2),
    )
    await expect(storing).rejects.toThrow('answered for 700 rows from 700, not 700 from 0')
    port1.close()
  })
})

describe('packIssues', () => {
  it("passes every set of issues as a byte a row and gives it back in the check's order", () => {
    const sets: RowIssue[][] = []
    for (let bits = 0; bits < 1 << issueKinds.length; bits++)
      sets.push(issueKinds.filter((_, at) => bits & (1 << at)))
    const packed = packIssues(sets)
    expect(packed.byteLength).toBe(sets.length)
    expect(unpackIssues(packed)).toEqual(sets)
  })
})

/** A stand-in worker: records what it is sent; the test answers for it. */
class StandIn {
  onmessage: ((event: { data: FromWorker }) => void) | null = null
  onerror: ((event: { message: string; preventDefault(): void }) => void) | null = null
  sent: ToWorker[] = []
  terminated = false
  postMessage(message: ToWorker): void {
    this.sent.push(message)
  }
  terminate(): void {
    this.terminated = true
  }
}

describe('startImportWorker', () => {
  const start = {
    type: 'start' as const,
    file: new Blob(['First,Last\nA,B\n']),
    options,
    listId: 'L',
    mapping,
  }
  const workersOf = (store: StandIn, check: StandIn | null) => ({
    store: store as unknown as Worker,
    check: check as unknown as Worker | null,
  })

  it('starts the store and the check worker on the same file, joined by a channel', async () => {
    const store = new StandIn()
    const check = new StandIn()
    startImportWorker(start, () => undefined, workersOf(store, check))
    const [toStore] = store.sent as Extract<ToWorker, { type: 'start' }>[]
    const [toCheck] = check.sent as Extract<ToWorker, { type: 'start' }>[]
    for (const [sent, role] of [
      [toStore!, 'store'],
      [toCheck!, 'check'],
    ] as const) {
      expect(sent.role).toBe(role)
      expect(sent.file).toBe(start.file)
      expect([sent.listId, sent.mapping, sent.options]).toEqual([start.listId, start.mapping, start.options])
    }
    // What the check answers on its port, the store reads on its own.
    const heard = new Promise((resolve) => (toStore!.peer!.onmessage = (event) => resolve(event.data)))
    toCheck!.peer!.postMessage({ type: 'summary' })
    expect(await heard).toEqual({ type: 'summary' })
    toStore!.peer!.close()
  })

  it('checks in the store worker when there is no check worker', () => {
    const store = new StandIn()
    startImportWorker(start, () => undefined, workersOf(store, null))
    expect(store.sent[0]).toMatchObject({ role: 'store' })
    expect(store.sent[0]).not.toHaveProperty('peer')
  })

  it('stops the store worker when the check worker fails, then reports the failure and ends both', async () => {
    const store = new StandIn()
    const check = new StandIn()
    const run = startImportWorker(start, () => undefined, workersOf(store, check))
    check.onerror!({ message: 'Out of memory', preventDefault: () => undefined })
    expect(store.sent.at(-1)).toEqual({ type: 'cancel' })
    expect(store.terminated).toBe(false)
    store.onmessage!({ data: { type: 'cancelled' } })
    expect(await run.outcome).toEqual({
      type: 'failed',
      error: { code: 'internal', message: 'Out of memory' },
    })
    expect(store.terminated && check.terminated).toBe(true)
  })

  it('cancels both workers', async () => {
    const store = new StandIn()
    const check = new StandIn()
    const run = startImportWorker(start, () => undefined, workersOf(store, check))
    run.cancel()
    expect(store.sent.at(-1)).toEqual({ type: 'cancel' })
    expect(check.sent.at(-1)).toEqual({ type: 'cancel' })
    store.onmessage!({ data: { type: 'cancelled' } })
    expect(await run.outcome).toEqual({ type: 'cancelled' })
  })
})

describe('importWorkerCount', () => {
  it('runs an import on two workers from four cores, on one below', () => {
    expect([1, 2, 3, 4, 8].map((cores) => importWorkerCount(cores))).toEqual([1, 1, 1, 2, 2])
    const made: StandIn[] = []
    const spawn = () => (made.push(new StandIn()), made.at(-1) as unknown as Worker)
    expect(spawnImportWorkers(spawn, 1).check).toBeNull()
    expect(made).toHaveLength(1)
    expect(spawnImportWorkers(spawn, 2).check).toBe(made[2])
  })
})
