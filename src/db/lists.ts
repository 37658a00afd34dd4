import Dexie from 'dexie'
import { fitMapping, mappingSignature } from '@domain/mapping'
import type { EnrichmentRowInput } from '@shared/contract'
import { identityOf, leadReader, serviceFieldsOf } from '@domain/person'
import {
  decideRun,
  type LibraryKnowledge,
  type RowDecision,
  type RunCounts,
  type RunRequest,
  type RunRowInput,
} from '@domain/run'
import { uniqueHeaders } from '@domain/read/sniff'
import type { BatchCells } from '@domain/read/parse'
import { createValidator, type ValidationSummary } from '@domain/validation'
import {
  appendBlockRows,
  prepareBlockRows,
  blockTables,
  blockSize,
  deleteBlocks,
  eachBlock,
  eachStoredBlock,
  putRows,
  rowAt,
  storedRowCount,
} from './blocks'
import { applyTally, countTables, deleteCounts, FacetTally } from './facet-tally'
import { db, rowKey, type LeadkeeperDb } from './schema'
import type { ColumnMapping, ListRecord, RowIssue, RowRecord } from './records'

export type { ValidationSummary } from '@domain/validation'

/** A row a run fills without the service: from a twin, from the library, or marked not sent. */
export type LocalDecision = Pick<RowDecision, 'index' | 'twins' | 'library' | 'outcome'>

export interface ListRunPlan {
  /** The rows to send, each with what to ask for it. */
  rows: EnrichmentRowInput[]
  counts: RunCounts
  local: LocalDecision[]
}

export interface NewList {
  /** Its id when the caller needs it before the list exists (a window's claim on it); else a new one. */
  id?: string
  name: string
  source: ListRecord['source']
  columns: string[]
  mapping: ColumnMapping
}

export interface ImportedSoFar {
  rows: number
  last: string[] | null
}

export interface ValidateOptions {
  onProgress?: (done: number, total: number) => void
  signal?: AbortSignal
}

/**
 * Which of these identities ('first last@domain', lower-cased) the library already holds. Given by
 * the caller (`knownToLibrary` on a page or in a worker, the index itself in the library's own
 * work): list code does not reach the library, whose work makes lists.
 */
export type KnownIdentities = (identities: string[]) => Promise<Set<string>>

/** What the library holds about these identities, for a run's decisions; given as `KnownIdentities` is. */
export type LibraryKnowledgeOf = (identities: string[]) => Promise<Map<string, LibraryKnowledge>>

/** Rows read or written per transaction: big enough to be fast, small enough for memory. */
const pageSize = 5_000

/** The tables a write of rows touches: the blocks and the list's facet counts. */
const rowTablesOf = (database: LeadkeeperDb) => [...blockTables(database), ...countTables(database)]

export async function createList(input: NewList, database: LeadkeeperDb = db): Promise<ListRecord> {
  const now = Date.now()
  const list: ListRecord = {
    id: input.id ?? crypto.randomUUID(),
    name: input.name,
    createdAt: now,
    updatedAt: now,
    source: input.source,
    columns: input.columns,
    mapping: fitMapping(input.mapping, input.columns.length),
    rowCount: 0,
    state: 'importing',
    jobIds: [],
    creditsSpent: 0,
  }
  await database.lists.add(list)
  return list
}

/**
 * `issues`, when given, are the rows' issues found while importing, in the same order; `cells`, when
 * given, every cell of the rows, as the file read them (the rows may then hold only some). Not an async
 * function: one would hold `rows`, a batch of the file's cells, until the write has committed, while
 * the next batch is read; they are packed first (`prepareBlockRows`) and let go. Without `counted`,
 * the list's counts are left as they are: an append's rows are counted once they are the list's
 * (`finishAppend`), so that the list does not show them while they are read.
 */
export function appendRows(
  listId: string,
  startIndex: number,
  rows: string[][],
  issues?: RowIssue[][],
  cells?: BatchCells,
  database: LeadkeeperDb = db,
  counted = true,
): Promise<void> {
  // No facet fields: they are unknown until a result arrives.
  const tally = new FacetTally()
  if (counted) tally.addValue(listId, 'status', 'pending', rows.length)
  const prepared = prepareBlockRows(listId, startIndex, rows, issues, cells)
  return database.transaction('rw', rowTablesOf(database), async () => {
    await appendBlockRows(database, prepared)
    await applyTally(database, tally)
  })
}

/**
 * Where an interrupted import stopped: the rows it stored (`[0, rows)`) and the cells of the last,
 * by which the file chosen to resume it is recognised.
 */
export async function importedSoFar(listId: string, database: LeadkeeperDb = db): Promise<ImportedSoFar> {
  const rows = await storedRowCount(database, listId)
  const last = rows > 0 ? ((await rowAt(database, listId, rows - 1))?.values ?? null) : null
  return { rows, last }
}

/**
 * The cells of a list's rows before `end` that are not removed, a block at a time: the people an
 * append's rows are checked against, so that a row repeating one is a duplicate.
 */
export async function eachRowBefore(
  listId: string,
  end: number,
  onRows: (values: string[][]) => void,
  database: LeadkeeperDb = db,
): Promise<void> {
  await eachStoredBlock(
    database,
    listId,
    (rows) => {
      const values: string[][] = []
      for (const row of rows) if (row.index < end && row.removedAt === undefined) values.push(row.values)
      onRows(values)
    },
    10,
    { from: 0, to: Math.ceil(end / blockSize) },
  )
}

/** `widest`: cells of the widest row; columns past the header's are named by position ("Column 6"). */
export async function finishImport(
  listId: string,
  rowCount: number,
  widest = 0,
  database: LeadkeeperDb = db,
): Promise<void> {
  const list = await database.lists.get(listId)
  const columns = list && widest > list.columns.length ? uniqueHeaders(list.columns, widest) : list?.columns
  await database.lists.update(listId, {
    state: 'ready',
    rowCount,
    updatedAt: Date.now(),
    ...(columns ? { columns } : {}),
  })
}

/** The blocks go by key-range deletes, without loading them; the list record in the same transaction. */
export async function deleteList(listId: string, database: LeadkeeperDb = db): Promise<void> {
  await database.transaction('rw', [database.lists, database.listOps, ...rowTablesOf(database)], async () => {
    await deleteBlocks(database, listId)
    await deleteCounts(database, listId)
    await database.listOps
      .where('[listId+seq]')
      .between([listId, Dexie.minKey], [listId, Dexie.maxKey], true, true)
      .delete()
    await database.lists.delete(listId)
  })
}

export async function updateMapping(
  listId: string,
  mapping: ColumnMapping,
  database: LeadkeeperDb = db,
): Promise<void> {
  const list = await database.lists.get(listId)
  if (!list) return
  await database.lists.update(listId, {
    mapping: fitMapping(mapping, list.columns.length),
    updatedAt: Date.now(),
  })
}

export async function saveMappingFor(
  columns: string[],
  mapping: ColumnMapping,
  database: LeadkeeperDb = db,
): Promise<void> {
  await database.mappings.put({
    signature: mappingSignature(columns),
    mapping: fitMapping(mapping, columns.length),
    savedAt: Date.now(),
  })
}

export async function savedMappingFor(
  columns: string[],
  database: LeadkeeperDb = db,
): Promise<ColumnMapping | null> {
  const saved = await database.mappings.get(mappingSignature(columns))
  return saved ? fitMapping(saved.mapping, columns.length) : null
}

/**
 * Checks every row against the mapping, page by page in key order, and writes each row's issues.
 * Skips are reset: apply the user's choices with `setSkip` afterwards.
 */
export async function validateList(
  listId: string,
  mapping: ColumnMapping,
  known: KnownIdentities,
  options: ValidateOptions = {},
  database: LeadkeeperDb = db,
): Promise<ValidationSummary> {
  const validator = createValidator(mapping, known)
  const total = (await database.lists.get(listId))?.rowCount ?? 0
  await eachBlock(database, listId, async (rows) => {
    if (options.signal?.aborted) throw new DOMException('Validation cancelled', 'AbortError')
    if (rows.length === 0) return
    const issues = await validator.check(
      rows[0]!.index,
      rows.map((row) => row.values),
    )
    const updated = rows.map((row, offset) => ({ ...row, issues: issues[offset]!, skip: false }))
    await database.transaction('rw', blockTables(database), async () => putRows(database, listId, updated))
    options.onProgress?.(validator.summary().rows, total)
  })
  return validator.summary()
}

/**
 * Sets `skip` on every row of the list that has any of these issues; with `from`, on the rows from
 * that one on (an append's), the list's others left as the user set them.
 */
export async function setSkip(
  listId: string,
  issues: RowIssue[],
  skip: boolean,
  database: LeadkeeperDb = db,
  from = 0,
): Promise<void> {
  if (issues.length === 0) return
  const wanted = new Set(issues)
  await eachBlock(database, listId, async (rows) => {
    const changed = rows.filter(
      (row) => row.index >= from && row.skip !== skip && row.issues.some((issue) => wanted.has(issue)),
    )
    if (changed.length === 0) return
    await database.transaction('rw', blockTables(database), async () =>
      putRows(
        database,
        listId,
        changed.map((row) => ({ ...row, skip })),
      ),
    )
  })
}

/**
 * The rows as a run decides about them: who each one is, what it already holds, whether the user
 * skipped it. Rows enriched before answers were kept say what they hold by their result.
 */
export async function runRowsFor(
  listId: string,
  mapping: ColumnMapping,
  database: LeadkeeperDb = db,
): Promise<RunRowInput[]> {
  const list = await database.lists.get(listId)
  const since = list?.updatedAt ?? Date.now()
  const out: RunRowInput[] = []
  const leadOfRow = leadReader(mapping)
  await eachBlock(database, listId, (rows) => {
    for (const row of rows) {
      // A removed row is not sent, counted or filled.
      if (row.removedAt !== undefined) continue
      out.push({
        key: rowKey(listId, row.index),
        index: row.index,
        lead: leadOfRow(row.values),
        answers: row.answers ?? legacyAnswers(row, since),
        skip: row.skip,
        // Skipped by a run (an uncertain request given up), not by the user's choice.
        givenUp: row.status === 'skipped' && !row.skip,
      })
    }
  })
  return out
}

/**
 * What a run of this list does with every row: the domain's decisions over the rows and what the
 * library holds, the rows to send with what to ask for each, and the rows to fill locally.
 */
export async function planRun(
  listId: string,
  mapping: ColumnMapping,
  request: RunRequest,
  knowledge: LibraryKnowledgeOf,
  database: LeadkeeperDb = db,
): Promise<ListRunPlan> {
  const rows = await runRowsFor(listId, mapping, database)
  const library = await knowledge(rows.map((row) => identityOf(row.lead)))
  const plan = decideRun(rows, request, (identity) => library.get(identity))
  const toSend: EnrichmentRowInput[] = []
  const local: LocalDecision[] = []
  plan.decisions.forEach((decision, at) => {
    const marked = decision.outcome === 'invalid' || decision.outcome === 'skipped'
    if (decision.twins.length > 0 || decision.library || marked) local.push(decision)
    if (decision.outcome === 'send')
      toSend.push({ key: decision.key, ...serviceFieldsOf(rows[at]!.lead), kinds: decision.send })
  })
  return { rows: toSend, counts: plan.counts, local }
}

/** A list made from rows already in memory, such as search results saved as a list. */
export function createListFromRecords(
  name: string,
  columns: string[],
  rows: string[][],
  mapping: ColumnMapping,
  source: ListRecord['source'],
  known: KnownIdentities,
  database: LeadkeeperDb = db,
): Promise<ListRecord> {
  let start = 0
  const next = async () => {
    if (start >= rows.length) return null
    start += pageSize
    return rows.slice(start - pageSize, start)
  }
  return createListFromBatches(name, columns, next, mapping, source, known, database)
}

/**
 * A list made from rows that come a batch at a time (the library's people, read as they are
 * written) until `next` gives null, checked as an import is; on a failure nothing of it is left.
 */
export async function createListFromBatches(
  name: string,
  columns: string[],
  next: () => Promise<string[][] | null>,
  mapping: ColumnMapping,
  source: ListRecord['source'],
  known: KnownIdentities,
  database: LeadkeeperDb = db,
): Promise<ListRecord> {
  const list = await createList({ name, source, columns, mapping }, database)
  let count = 0
  try {
    for (let batch = await next(); batch !== null; batch = await next()) {
      const rows = batch.map((row) => fitRow(row, columns.length))
      await appendRows(list.id, count, rows, undefined, undefined, database)
      count += rows.length
    }
    await finishImport(list.id, count, 0, database)
    await validateList(list.id, list.mapping, known, {}, database)
  } catch (error) {
    await deleteList(list.id, database)
    throw error
  }
  return { ...list, state: 'ready', rowCount: count }
}

/** A row enriched before answers were kept: its result says an email was asked, and a phone if one is there. */
function legacyAnswers(row: RowRecord, at: number): RowRecord['answers'] {
  if (row.status !== 'found' && row.status !== 'not_found') return undefined
  return row.result?.['contact_phone_number'] ? { email: at, phone: at } : { email: at }
}

function fitRow(row: string[], width: number): string[] {
  if (row.length === width) return row
  return row.length > width ? row.slice(0, width) : row.concat(Array<string>(width - row.length).fill(''))
}
