/**
 * The page side of the `edits` bench, bundled into the harness beside `kit.ts`: a list seeded
 * through the app's own import and result functions, then edited, trimmed, undone and copied with
 * `src/db/list-ops.ts` as the grid and the list page call it, each beside a raw Dexie baseline on
 * the same records. Typed structurally, as `kit.ts` is.
 */
import { columns, rowValues } from './kit'

interface Table {
  get(key: unknown): Promise<unknown>
  put(record: unknown, key?: unknown): Promise<unknown>
  bulkGet(keys: unknown[]): Promise<unknown[]>
  bulkPut(records: unknown[], keys?: unknown[]): Promise<unknown>
  bulkDelete(keys: unknown[]): Promise<void>
}
interface Database {
  listBlocks: Table
  listFacets: Table
  listCompanies: Table
  listRemovals: Table
  facetCounts: Table
  companyCounts: Table
  transaction<T>(mode: string, tables: Table[], work: () => Promise<T>): Promise<T>
}
type Changed<T> = { ok: true; value: T } | { ok: false; message: string }
interface ListOp {
  kind: string
  rows: number
}
interface Lk {
  db: Database
  lists: {
    createList(input: unknown): Promise<{ id: string }>
    appendRows(listId: string, startIndex: number, rows: string[][]): Promise<void>
    finishImport(listId: string, rows: number): Promise<void>
    deleteList(listId: string): Promise<void>
  }
  rows: {
    facetCounts(listId: string): Promise<{ status: { value: string | number; count: number }[] }>
  }
  facets: {
    FacetTally: new () => { add(listId: string, row: Record<string, unknown>, sign: 1 | -1): void }
    applyTally(database: Database, tally: unknown): Promise<void>
  }
  blocks: {
    blockTables(database: Database): Table[]
    putRows(database: Database, listId: string, rows: Record<string, unknown>[]): Promise<void>
    readRows(
      database: Database,
      listId: string,
      indexes: readonly number[],
    ): Promise<Map<number, { values: string[]; removedAt?: number }>>
  }
  knownToLibrary(): (identities: string[]) => Promise<Set<string>>
  listOps: {
    editCells(
      listId: string,
      edits: { index: number; column: number; value: string }[],
      known: (identities: string[]) => Promise<Set<string>>,
    ): Promise<Changed<ListOp | null>>
    removeRows(listId: string, indexes: ArrayLike<number>): Promise<Changed<ListOp | null>>
    undo(listId: string): Promise<Changed<ListOp | null>>
    listFromRows(
      listId: string,
      indexes: ArrayLike<number>,
      name: string,
    ): Promise<Changed<{ id: string; rowCount: number }>>
  }
}
interface PageGlobals {
  lk: Lk
  lkEdits: typeof edits
  performance: { now(): number }
  gc?: () => void
}

const page = globalThis as unknown as PageGlobals
const lk = (): Lk => page.lk

/** Rows appended a call, as the import stores a batch. */
const importBatch = 20_000
/** Answered rows written a transaction. */
const resultBatch = 10_000
/** Blocks read and written together by the raw baseline of a new list, as `listFromRows` does. */
const rawBlocksAtOnce = 32
/** Blocks whose records the raw baseline of a removal reads and writes together, as `markRemovals` does. */
const rawRemovalBlocks = 64
/** The column the bench edits: Notes, which says nothing of who the row is. */
const notesColumn = columns.indexOf('Notes')
const emailStatuses = ['deliverable', 'catch_all', 'undeliverable', 'catch_all_safe', 'deliverable']
/** When the seeded rows' emails were found. */
const answeredAt = Date.UTC(2026, 10, 1)

const blockKey = (listId: string, block: number): [string, number] => [listId, block]

function everyOther(rows: number): Int32Array {
  const indexes = new Int32Array(Math.ceil(rows / 2))
  for (let at = 0; at < indexes.length; at++) indexes[at] = at * 2
  return indexes
}

async function removedCounted(listId: string): Promise<number> {
  const counts = await lk().rows.facetCounts(listId)
  return counts.status.find(({ value }) => value === 'removed')?.count ?? 0
}

function changed<T>(outcome: Changed<T>, what: string): T {
  if (!outcome.ok) throw new Error(`${what}: ${outcome.message}`)
  return outcome.value
}

/**
 * Row `i` as a run's answer leaves it (`putAnswers` in src/db/rows.ts): its status, facets, the
 * service's row, when and whence the email was answered, the person it was filed as.
 */
function answeredRow(listId: string, i: number): Record<string, unknown> {
  const values = rowValues(i)
  const found = i % 7 !== 3
  const emailStatus = found ? emailStatuses[i % emailStatuses.length]! : 'not_found'
  return {
    listId,
    index: i,
    values,
    issues: [],
    skip: false,
    status: found ? 'found' : 'not_found',
    emailStatus,
    country: values[7],
    company: values[3],
    result: found
      ? {
          contact_first_name: values[0],
          contact_last_name: values[1],
          contact_full_name: `${values[0]} ${values[1]}`,
          contact_email_address: values[2],
          contact_email_address_status: emailStatus,
          contact_job_title: values[5],
          contact_location_country: values[7],
          company_name: values[3],
          company_domain: values[4]!.replace('https://www.', ''),
        }
      : { contact_email_address: null, contact_email_address_status: emailStatus },
    answers: { email: answeredAt },
    origins: { email: { via: 'service', at: answeredAt } },
    ...(found ? { contactId: `e:${values[2]}` } : {}),
  }
}

const edits = {
  /**
   * A list of `rows` rows as an import leaves it (`createList`, `appendRows` in the import's
   * batches, `finishImport`: packed blocks), then its first `answered` rows as a run's answers leave
   * them, through the block writer (`putRows`, their blocks coded) with the facet counts, batches
   * of 10,000. Not through `applyResultBatches`: it files every person in the library on the page
   * too, which at half a million people would take the run's whole time, and leaves the blocks the
   * same.
   */
  async seedList(
    rows: number,
    answered: number,
  ): Promise<{ listId: string; importMs: number; resultsMs: number }> {
    const list = await lk().lists.createList({
      name: `bench edits ${rows}`,
      source: { fileName: 'bench.csv', size: 0, encoding: 'utf-8', delimiter: ',', hasHeader: true },
      columns,
      mapping: { first_name: 0, last_name: 1, email: 2, company_name: 3, website: 4 },
    })
    let started = page.performance.now()
    for (let start = 0; start < rows; start += importBatch) {
      const batch: string[][] = []
      for (let i = start; i < Math.min(rows, start + importBatch); i++) batch.push(rowValues(i))
      await lk().lists.appendRows(list.id, start, batch)
    }
    await lk().lists.finishImport(list.id, rows)
    const importMs = page.performance.now() - started
    started = page.performance.now()
    const db = lk().db
    for (let start = 0; start < answered; start += resultBatch) {
      const batch: Record<string, unknown>[] = []
      const tally = new (lk().facets.FacetTally)()
      for (let i = start; i < Math.min(answered, start + resultBatch); i++) {
        const row = answeredRow(list.id, i)
        tally.add(list.id, { status: 'pending' }, -1)
        tally.add(list.id, row, 1)
        batch.push(row)
      }
      await db.transaction(
        'rw',
        [...lk().blocks.blockTables(db), db.facetCounts, db.companyCounts],
        async () => {
          await lk().blocks.putRows(db, list.id, batch)
          await lk().facets.applyTally(db, tally)
        },
      )
    }
    return { listId: list.id, importMs, resultsMs: page.performance.now() - started }
  },

  /**
   * One cell edited as the grid commits it (`editCells`), timed from the call to the row read back
   * from its block with the new value: what the grid shows next.
   */
  async editCell(listId: string, index: number, value: string): Promise<{ ms: number }> {
    const started = page.performance.now()
    changed(
      await lk().listOps.editCells(listId, [{ index, column: notesColumn, value }], lk().knownToLibrary()),
      'edit',
    )
    const row = (await lk().blocks.readRows(lk().db, listId, [index])).get(index)
    const ms = page.performance.now() - started
    if (row?.values[notesColumn] !== value)
      throw new Error(`row ${index} reads "${row?.values[notesColumn]}" after the edit, not "${value}"`)
    return { ms }
  },

  /** The raw floor of an edit: the row's block read, put back unchanged, and read again. */
  async rawEdit(listId: string, index: number): Promise<{ ms: number }> {
    const table = lk().db.listBlocks
    const key = blockKey(listId, Math.floor(index / 1_000))
    const started = page.performance.now()
    const block = await table.get(key)
    await table.put(block, key)
    await table.get(key)
    return { ms: page.performance.now() - started }
  },

  /** A row's Notes cell as stored, and whether the row is removed. */
  async readCell(listId: string, index: number): Promise<{ value: string | null; removed: boolean }> {
    const row = (await lk().blocks.readRows(lk().db, listId, [index])).get(index)
    return { value: row?.values[notesColumn] ?? null, removed: row?.removedAt !== undefined }
  },

  /** Every other row removed (`removeRows`), as a selection of all the rows a filter shows. */
  async removeEveryOther(
    listId: string,
    rows: number,
  ): Promise<{ ms: number; indexes: number; changed: number; removed: number }> {
    const indexes = everyOther(rows)
    const started = page.performance.now()
    const op = changed(await lk().listOps.removeRows(listId, indexes), 'removal')
    const ms = page.performance.now() - started
    return { ms, indexes: indexes.length, changed: op?.rows ?? 0, removed: await removedCounted(listId) }
  },

  /** The list's last change undone (`undo`). */
  async undoLast(listId: string): Promise<{ ms: number; kind: string; rows: number; removed: number }> {
    const started = page.performance.now()
    const op = changed(await lk().listOps.undo(listId), 'undo')
    const ms = page.performance.now() - started
    if (!op) throw new Error('nothing was undone')
    return { ms, kind: op.kind, rows: op.rows, removed: await removedCounted(listId) }
  },

  /**
   * The raw floor of a removal of every other row, and where its time goes: with plain Dexie, in
   * one transaction, 64 blocks at a time as `markRemovals` goes, every block's facet and company
   * records read (what its counts follow from) and a removal record a block put (every other row
   * marked; under another list's keys, deleted after), each step timed apart.
   */
  async rawRemoval(
    listId: string,
    rows: number,
  ): Promise<{ totalMs: number; facetsMs: number; companiesMs: number; putMs: number; commitMs: number }> {
    const db = lk().db
    const numbers = Array.from({ length: Math.ceil(rows / 1_000) }, (_, at) => at)
    const scratch = `${listId}-raw-removal`
    const steps = { facetsMs: 0, companiesMs: 0, putMs: 0, commitMs: 0 }
    const codes = new Uint8Array(1_000)
    for (let at = 0; at < codes.length; at += 2) codes[at] = 1
    const started = page.performance.now()
    let putsDone = started
    await db.transaction('rw', [db.listFacets, db.listCompanies, db.listRemovals], async () => {
      for (let from = 0; from < numbers.length; from += rawRemovalBlocks) {
        const part = numbers.slice(from, from + rawRemovalBlocks)
        const keys = part.map((number) => blockKey(listId, number))
        let at = page.performance.now()
        await db.listFacets.bulkGet(keys)
        steps.facetsMs += page.performance.now() - at
        at = page.performance.now()
        await db.listCompanies.bulkGet(keys)
        steps.companiesMs += page.performance.now() - at
        at = page.performance.now()
        await db.listRemovals.bulkPut(
          part.map((block) => ({ listId: scratch, block, times: [answeredAt], codes })),
          part.map((number) => blockKey(scratch, number)),
        )
        putsDone = page.performance.now()
        steps.putMs += putsDone - at
      }
    })
    const totalMs = page.performance.now() - started
    steps.commitMs = totalMs - (putsDone - started)
    await db.transaction('rw', [db.listRemovals], async () => {
      await db.listRemovals.bulkDelete(numbers.map((number) => blockKey(scratch, number)))
    })
    return { totalMs, ...steps }
  },

  /** "New list from the rows shown" (`listFromRows`) of every other row; the new list is deleted after. */
  async fromEveryOther(listId: string, rows: number): Promise<{ ms: number; rows: number }> {
    const indexes = everyOther(rows)
    const started = page.performance.now()
    const list = changed(await lk().listOps.listFromRows(listId, indexes, 'bench rows shown'), 'new list')
    const ms = page.performance.now() - started
    if (list.rowCount !== indexes.length)
      throw new Error(`the new list has ${list.rowCount} rows of ${indexes.length}`)
    await lk().lists.deleteList(list.id)
    page.gc?.()
    return { ms, rows: list.rowCount }
  },

  /**
   * The raw floor of a new list of every other row: every block the rows shown span read (twice
   * as many as the new list fills), and as many as it fills put under another list's keys with
   * their facet and company records, unchanged, with plain Dexie, 32 new blocks a transaction;
   * deleted after. The rows themselves are not taken apart: a floor, not the work.
   */
  async rawCopy(listId: string, blocks: number): Promise<{ ms: number }> {
    const db = lk().db
    const tables = [db.listBlocks, db.listFacets, db.listCompanies]
    const copyId = `${listId}-raw-copy`
    const numbers = Array.from({ length: blocks }, (_, at) => at * 2)
    const started = page.performance.now()
    for (let from = 0; from < numbers.length; from += rawBlocksAtOnce) {
      const part = numbers.slice(from, from + rawBlocksAtOnce)
      const keys = part.map((_, at) => blockKey(copyId, from + at))
      await db.transaction('rw', tables, async () => {
        const spanned = await db.listBlocks.bulkGet(
          part.flatMap((number) => [blockKey(listId, number), blockKey(listId, number + 1)]),
        )
        await db.listBlocks.bulkPut(
          spanned.filter((_, at) => at % 2 === 0),
          keys,
        )
        for (const table of [db.listFacets, db.listCompanies]) {
          const records = await table.bulkGet(part.map((number) => blockKey(listId, number)))
          await table.bulkPut(records, keys)
        }
      })
    }
    const ms = page.performance.now() - started
    const keys = numbers.map((_, at) => blockKey(copyId, at))
    await db.transaction('rw', tables, async () => {
      for (const table of tables) await table.bulkDelete(keys)
    })
    return { ms }
  },

  async deleteList(listId: string): Promise<void> {
    await lk().lists.deleteList(listId)
    page.gc?.()
  },
}

export type EditsKit = typeof edits

page.lkEdits = edits
