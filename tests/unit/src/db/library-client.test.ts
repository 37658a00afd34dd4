import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { reactive } from 'vue'
import type { ResultBatch } from '@shared/contract'
import { portLibrary, workerLibrary } from '@/db/library-client'
import {
  libraryService,
  libraryWorkerReceiver,
  type LibraryAnswer,
  type LibraryCall,
  type LibraryPart,
  type ToLibrary,
} from '@/db/library-service'
import { LeadkeeperDb, rowKey } from '@/db/schema'
import { contactById, countContacts } from '../support/library'
import { asked, seed } from '../support/list-fixtures'
import { allRows } from '../support/rows'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())

/**
 * The library worker in process: each message is cloned as `postMessage` clones it (a reactive
 * proxy is refused) and handed to the worker's own receiver, whose answers are cloned back.
 */
function inProcessWorker(database: LeadkeeperDb) {
  const messages: (LibraryCall | LibraryPart)[] = []
  const worker = {
    onmessage: null as ((event: MessageEvent<LibraryAnswer>) => void) | null,
    onerror: null as ((event: ErrorEvent) => void) | null,
    postMessage(message: ToLibrary, transfer: Transferable[] = []) {
      const copy = structuredClone(message, { transfer })
      if (!('connect' in copy)) messages.push(copy)
      queueMicrotask(() => receive(copy))
    },
    terminate() {},
  }
  const receive = libraryWorkerReceiver(libraryService(database), (answer) =>
    worker.onmessage?.({ data: structuredClone(answer) } as MessageEvent<LibraryAnswer>),
  )
  return { library: workerLibrary(() => worker as unknown as Worker), messages }
}

describe('the library worker client', () => {
  it('sends a large drain in parts of whole batches, applied as one call: every row answered, twins beside their rows', async () => {
    const database = freshDb()
    await seed(database, 'L', 4_600)
    const { library, messages } = inProcessWorker(database)
    // 45 chunks of 100 rows, then one whose second row is the twin of its first.
    const batches: ResultBatch[] = Array.from({ length: 45 }, (_, chunk) => ({
      seq: chunk + 1,
      chunkIndex: chunk,
      at: 1_000 + chunk,
      rows: Array.from({ length: 100 }, (_, at) => asked('L', chunk * 100 + at)),
    }))
    batches.push({
      seq: 46,
      chunkIndex: 45,
      at: 2_000,
      rows: [asked('L', 4_500), { ...asked('L', 4_501), twinOf: rowKey('L', 4_500) }],
    })
    const { applied } = await library.applyResultBatches('L', batches)
    expect(applied).toBe(4_502)
    // Parts of 2,000 rows at most, plus the batch that crossed the line, never a batch cut in two;
    // then the call itself, which the worker runs on every batch at once.
    expect(
      messages.map((message) =>
        'part' in message ? (message.part as ResultBatch[]).map((batch) => batch.seq) : message.method,
      ),
    ).toEqual([
      Array.from({ length: 20 }, (_, at) => at + 1),
      Array.from({ length: 20 }, (_, at) => at + 21),
      [41, 42, 43, 44, 45, 46],
      'applyResultBatches',
    ])
    const rows = await allRows(database, 'L')
    expect(rows.slice(0, 4_502).every((row) => row.status === 'found')).toBe(true)
    expect(rows[4_502]!.status).toBe('pending')
    // The twin is filed under the person its row went with, with where it came from.
    expect(rows[4_501]!.contactId).toBe(rows[4_500]!.contactId)
    expect(rows[4_501]!.contactId).toBe('c:5500')
    expect(rows[4_501]!.origins?.email).toMatchObject({ via: 'twin', row: 4_500 })
    expect(await countContacts(database)).toBe(4_501)
  })

  it('files a large search sent in parts in one go, one person met in two parts kept once', async () => {
    const database = freshDb()
    const { library, messages } = inProcessWorker(database)
    const payloads: Record<string, unknown>[] = Array.from({ length: 4_500 }, (_, at) => ({
      contact_id: 10_000 + at,
      contact_full_name: `Person ${at}`,
    }))
    payloads[10] = { contact_email_address: 'ada@engines.io', contact_full_name: 'Ada Lovelace' }
    payloads[3_000] = {
      contact_email_address: 'ada@engines.io',
      contact_id: 42,
      contact_job_title: 'Analyst',
    }
    const source = { kind: 'lead_search' as const, id: 's', label: 's', at: 5 }
    const ids = await library.upsertContacts(payloads, source)
    expect(messages.map((message) => ('part' in message ? message.part.length : message.method))).toEqual([
      2_000,
      2_000,
      500,
      'upsertContacts',
    ])
    expect(ids).toHaveLength(4_500)
    expect(ids[3_000]).toBe('e:ada@engines.io')
    expect(ids[4_499]).toBe('c:14499')
    expect(await countContacts(database)).toBe(4_499)
    expect(await contactById('e:ada@engines.io', database)).toMatchObject({ jobTitle: 'Analyst' })
  })

  it("sends a search held by the page's state as plain data, and brings back the worker's errors", async () => {
    const database = freshDb()
    const { library, messages } = inProcessWorker(database)
    await library.upsertContacts(
      [{ contact_id: 1, contact_full_name: 'Zoë Brown', contact_location_country: 'Norway' }],
      { kind: 'lookup', id: 'k', label: 'k', at: 1 },
    )
    const search = reactive({ prefix: 'zoe', facets: { country: ['Norway'] } })
    expect(() => structuredClone(search)).toThrow()
    const page = await library.searchContacts({ ...search, limit: 10 })
    // A small call goes whole, as plain data.
    expect(messages.at(-1)).toMatchObject({
      method: 'searchContacts',
      args: [{ facets: { country: ['Norway'] } }],
    })
    expect(page.items.map((contact) => contact.id)).toEqual(['c:1'])
    database.close()
    await expect(library.contactById('c:1')).rejects.toMatchObject({ name: 'DatabaseClosedError' })
  })

  it('answers a call that throws at once, or whose answer cannot be copied, with its error; the worker goes on', async () => {
    const database = freshDb()
    const service = libraryService(database)
    const answers: LibraryAnswer[] = []
    const receive = libraryWorkerReceiver(
      {
        ...service,
        // Throws before it returns a promise, as a call checking its arguments may.
        contactById: () => {
          throw new TypeError('not an id')
        },
        // An answer `postMessage` refuses to copy.
        contactsByIds: async () => [{ id: 'c:1', later: () => 1 }] as never,
      },
      (answer) => answers.push(structuredClone(answer)),
    )
    let uncaught: unknown
    try {
      receive({ id: 1, method: 'contactById', args: ['c:1'] } as LibraryCall)
      receive({ id: 2, method: 'contactsByIds', args: [['c:1']] } as LibraryCall)
      receive({ id: 3, method: 'noSuchCall', args: [] } as unknown as LibraryCall)
      receive({ id: 4, method: 'readIndexAhead', args: [] } as LibraryCall)
    } catch (error) {
      uncaught = error
    }
    expect(uncaught).toBeUndefined()
    await expect.poll(() => answers.length).toBe(4)
    const byId = new Map(answers.map((answer) => [answer.id, answer]))
    expect(byId.get(1)).toMatchObject({ ok: false, name: 'TypeError', message: 'not an id' })
    expect(byId.get(2)).toMatchObject({ ok: false, name: 'DataCloneError' })
    expect(byId.get(3)).toMatchObject({ ok: false, message: 'The library has no call "noSuchCall".' })
    expect(byId.get(4)).toMatchObject({ ok: true })
    database.close()
  })

  it('reads the index ahead in the worker, which later searches find read', async () => {
    const database = freshDb()
    const { library, messages } = inProcessWorker(database)
    await library.upsertContacts(
      [{ contact_id: 1, contact_full_name: 'Zoë Brown', contact_location_country: 'Norway' }],
      { kind: 'lookup', id: 'k', label: 'k', at: 1 },
    )
    await library.readIndexAhead()
    expect(messages.at(-1)).toMatchObject({ method: 'readIndexAhead', args: [] })
    expect(await library.matchContactIds({ prefix: 'brown' })).toEqual(['c:1'])
  })

  it("answers the import worker's checks on a port of its own, from the same library", async () => {
    const database = freshDb()
    const { library } = inProcessWorker(database)
    await library.upsertContacts(
      [{ contact_first_name: 'Ada', contact_last_name: 'Lovelace', company_domain: 'engines.io' }],
      { kind: 'lookup', id: 'k', label: 'k', at: 1 },
    )
    // What the import worker does with the port it is started with.
    const port = library.connect()
    const fromImport = workerLibrary(() => port)
    expect(await fromImport.knownIdentities(['ada lovelace@engines.io', 'grace hopper@navy.mil'])).toEqual([
      'ada lovelace@engines.io',
    ])
    fromImport.dispose()
  })

  it('answers the import worker in process when the library worker does not answer its port', async () => {
    const database = freshDb()
    await libraryService(database).upsertContacts(
      [{ contact_first_name: 'Ada', contact_last_name: 'Lovelace', company_domain: 'engines.io' }],
      { kind: 'lookup', id: 'k', label: 'k', at: 1 },
    )
    // A port whose other end reads the calls but never answers: a library worker gone.
    const { port1, port2 } = new MessageChannel()
    let asked = 0
    port1.onmessage = () => (asked += 1)
    const library = portLibrary(port2, database, 50)
    expect(await library.knownIdentities(['ada lovelace@engines.io', 'grace hopper@navy.mil'])).toEqual([
      'ada lovelace@engines.io',
    ])
    expect(asked).toBe(1)
    // Once lost, it asks in process at once, not by the port again.
    expect(await library.knownIdentities(['grace hopper@navy.mil'])).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(asked).toBe(1)
    port1.close()
  })
})
