import Dexie from 'dexie'
import { headerFields } from '@domain/headers'
import { clean, normalizeDomain } from '@domain/normalize'
import { domainProblem, type ColumnMapping, type MappedField } from '@domain/person'
import { createValidator, skippableIssues } from '@domain/validation'
import {
  blockKeyedTables,
  blockOf,
  blockSize,
  blockTables,
  deleteBlocks,
  listBlockRange,
  putBlocks,
  putStoredRows,
  readRows,
  truncateRows,
  type PreparedBlocks,
} from './blocks'
import { blockLength, outOfLine } from './block-shape'
import { BlockPicker, sourceBlocks, type PickedBlock, type SourceBlock } from './row-pick'
import { markRemovals } from './removals'
import {
  applyTally,
  copyCounts,
  countTables,
  deleteCounts,
  descriptiveFacets,
  FacetTally,
  tallyFacetRecords,
} from './facet-tally'
import type { KnownIdentities } from './lists'
import { db, type LeadkeeperDb } from './schema'
import type { ListOp, ListRecord, RowRecord, StoredRow } from './records'

/**
 * The changes a user makes to a list — edits, removals, restores, renames — each recorded in the
 * list's history (`listOps`) in the transaction that makes it, so that undo, redo and the History
 * panel are one mechanism and survive a restart. The rows change in their blocks; the history keeps
 * what each change needs to be taken back. What a run wrote is not a change of the user's: an undo
 * never takes an answer away (see `editsBack`).
 */

/** What an Excel cell holds: a longer value is refused, in the grid and on a paste. */
export const maxCellLength = 32_767

/** The longest list name. */
export const maxListName = 200

/** The fields whose column tells who a row is: an edit of one sets an answered row to be sent again. */
const identityFields: readonly MappedField[] = [
  'first_name',
  'last_name',
  'full_name',
  'company_domain',
  'website',
  'email',
  'network_url',
]

export type Changed<T = undefined> = { ok: true; value: T } | { ok: false; message: string }

export interface CellEdit {
  index: number
  column: number
  value: string
}

const fieldOf = (mapping: ColumnMapping, column: number): MappedField | undefined =>
  headerFields.find((field) => mapping[field] === column)

/**
 * Why a value cannot go into a cell, checked as an import checks a row (a website or domain must give
 * a domain that can exist, an email must have one); null when it can.
 */
export function cellProblem(mapping: ColumnMapping, column: number, value: string): string | null {
  if (value.length > maxCellLength) {
    return `A cell holds at most ${maxCellLength.toLocaleString('en-US')} characters; this value has ${value.length.toLocaleString('en-US')}. Nothing was changed.`
  }
  const field = fieldOf(mapping, column)
  const text = clean(value)
  if (!field || text === '') return null
  if (field === 'company_domain' || field === 'website') {
    const domain = normalizeDomain(text)
    if (!domain || domainProblem(domain) === 'malformed_domain') {
      return `"${short(text)}" is not a website or a domain: write it as example.com or https://example.com.`
    }
  }
  if (field === 'email') {
    const at = text.lastIndexOf('@')
    if (at <= 0 || domainProblem(text.slice(at + 1).toLowerCase()) === 'malformed_domain') {
      return `"${short(text)}" is not an email address: write it as name@example.com.`
    }
  }
  if (field === 'network_url' && /\s/.test(text)) {
    return `"${short(text)}" is not a profile address: it has spaces.`
  }
  return null
}

function short(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text
}

/** Whether new cells change who the row is: a cell of a name, domain, website, email or profile column. */
export function changesWho(
  mapping: ColumnMapping,
  before: readonly string[],
  after: readonly string[],
): boolean {
  return identityFields.some((field) => {
    const column = mapping[field]
    return column !== undefined && clean(before[column]) !== clean(after[column])
  })
}

/** Whether a row holds an answer of the service's, a twin's or the library's. */
const answered = (row: StoredRow): boolean =>
  row.result !== undefined || (row.answers !== undefined && Object.keys(row.answers).length > 0)

/**
 * A row with new cells and their issues. When they change who the row is, what it was answered is set
 * aside in `earlier` and the row goes back to pending, "changed since it was answered": a next run
 * sends it, unless another row or the library knows the new person (the run's own rules).
 */
export function withCells(
  row: StoredRow,
  values: string[],
  issues: StoredRow['issues'],
  mapping: ColumnMapping,
  at: number,
): StoredRow {
  const next: StoredRow = { ...row, values, issues }
  if (row.skip && !issues.some((issue) => skippableIssues.includes(issue))) next.skip = false
  if (!changesWho(mapping, row.values, values) || row.status === 'pending') return next
  if (answered(row)) {
    next.earlier = [
      ...(row.earlier ?? []),
      {
        at,
        values: row.values,
        status: row.status,
        ...(row.result ? { result: row.result } : {}),
        ...(row.answers ? { answers: row.answers } : {}),
      },
    ]
    next.changedAt = at
  }
  next.status = 'pending'
  delete next.result
  delete next.answers
  delete next.origins
  delete next.note
  delete next.contactId
  for (const facet of descriptiveFacets) delete next[facet]
  return next
}

/** The rows' issues for new cells, as an import finds them (the library asked who it knows). */
async function issuesOf(
  mapping: ColumnMapping,
  rows: { row: StoredRow; values: string[] }[],
  known: KnownIdentities,
): Promise<StoredRow['issues'][]> {
  const validator = createValidator(mapping, known)
  const out: StoredRow['issues'][] = []
  for (const { row, values } of rows) {
    const [issues = []] = await validator.check(row.index, [values])
    // A duplicate is found against the rows before it in the list, which one row's check cannot see:
    // it stays while the row is the same person.
    const same = !changesWho(mapping, row.values, values)
    out.push(
      same && row.issues.includes('duplicate') ? [...new Set([...issues, 'duplicate' as const])] : issues,
    )
  }
  return out
}

/** Counts the rows out of the list's facet counts as they were and in as they are. */
function tallyOf(listId: string, pairs: { before: StoredRow; after: StoredRow }[]): FacetTally {
  const tally = new FacetTally()
  for (const { before, after } of pairs) {
    tally.add(listId, before, -1)
    tally.add(listId, after, 1)
  }
  return tally
}

const opsOf = (database: LeadkeeperDb, listId: string) =>
  database.listOps.where('[listId+seq]').between([listId, Dexie.minKey], [listId, Dexie.maxKey], true, true)

/**
 * Adds a change to the list's history, in the caller's transaction (over `changeTables`): the
 * changes undone before it can no longer be redone, as in any editor. The rows of an append undone
 * were kept, removed, for its redo: they are dropped now.
 */
export async function record(
  database: LeadkeeperDb,
  op: Omit<ListOp, 'seq' | 'at' | 'undone' | 'undoable'> & { undoable?: boolean },
): Promise<ListOp> {
  // The undone changes are the last ones that can be undone (an undo passes over a forget): read
  // back to the latest of those not undone.
  const ops = (
    await opsOf(database, op.listId)
      .reverse()
      .until((one) => one.undone === 0 && one.undoable, true)
      .toArray()
  ).reverse()
  const last = ops.at(-1)
  await dropUndone(database, op.listId, ops)
  const next: ListOp = { undoable: true, ...op, seq: (last?.seq ?? 0) + 1, at: Date.now(), undone: 0 }
  await database.listOps.put(next)
  await database.lists.update(op.listId, { updatedAt: next.at })
  return next
}

/**
 * Drops the changes undone, which can no longer be redone once another change is made; in the
 * caller's transaction over `changeTables`.
 */
export async function dropUndone(database: LeadkeeperDb, listId: string, ops?: ListOp[]): Promise<void> {
  const dropped = (ops ?? (await opsOf(database, listId).toArray())).filter((one) => one.undone === 1)
  if (dropped.length === 0) return
  await dropAppendedRows(database, listId, dropped)
  await database.listOps.bulkDelete(dropped.map((one): [string, number] => [one.listId, one.seq]))
}

/**
 * Drops the rows of appends undone whose redo is no longer possible, latest first, while they are
 * the list's last rows. Rows added since without a change of the user's (a search's people) keep
 * them where they are: they stay removed, their cells cut to the columns the list went back to, so
 * that no column added later shows what they held.
 */
async function dropAppendedRows(database: LeadkeeperDb, listId: string, dropped: ListOp[]): Promise<void> {
  const appends = dropped.filter((one) => one.kind === 'append' && one.range).reverse()
  if (appends.length === 0) return
  let rowCount = (await listOf(database, listId)).rowCount
  for (const append of appends) {
    const [first, end] = append.range!
    if (end === rowCount) {
      await truncateRows(database, listId, first)
      rowCount = first
    } else await cutCells(database, listId, first, end, append.columns![0].length)
  }
  await database.lists.update(listId, { rowCount })
}

/** Cuts the cells of rows `[first, end)` to `width`, a few blocks at a time; their counts do not change. */
async function cutCells(
  database: LeadkeeperDb,
  listId: string,
  first: number,
  end: number,
  width: number,
): Promise<void> {
  const page = blockSize * blocksAtOnce
  for (let from = first; from < end; from += page) {
    const wanted = Array.from({ length: Math.min(page, end - from) }, (_, at) => from + at)
    const rows = await readRows(database, listId, wanted)
    const cut = [...rows.values()]
      .filter((row) => row.values.length > width)
      .map((row) => ({ ...stored(row), values: row.values.slice(0, width) }))
    await putStoredRows(database, listId, cut)
  }
}

/** The append undone whose rows include one of these (they come back with its redo), if any. */
export function undoneAppendOf(ops: readonly ListOp[], indexes: ArrayLike<number>): ListOp | undefined {
  const undone = ops.filter((one) => one.kind === 'append' && one.undone === 1 && one.range)
  if (undone.length === 0) return undefined
  for (let at = 0; at < indexes.length; at++) {
    const index = indexes[at]!
    const found = undone.find(({ range }) => index >= range![0] && index < range![1])
    if (found) return found
  }
  return undefined
}

/** Why a list cannot take a change of the user's now, if it cannot. */
function busyList(list: ListRecord): string | null {
  if (list.state === 'importing') return 'The list is still being imported.'
  if (list.appending)
    return `Rows from “${list.appending.fileName}” are being added to this list: wait for them.`
  return null
}

export const changeTables = (database: LeadkeeperDb) => [
  ...blockTables(database),
  ...countTables(database),
  database.listOps,
  database.lists,
]

export async function listOf(database: LeadkeeperDb, listId: string): Promise<ListRecord> {
  const list = await database.lists.get(listId)
  if (!list) throw new Error('The list is no longer there.')
  return list
}

/**
 * Edits cells (one, or one value pasted into several): each value checked as an import checks it; a
 * value that cannot be is refused with its reason, and nothing is changed. Result columns are not
 * cells of the list's and cannot be edited.
 */
export async function editCells(
  listId: string,
  edits: readonly CellEdit[],
  known: KnownIdentities,
  database: LeadkeeperDb = db,
): Promise<Changed<ListOp | null>> {
  const list = await listOf(database, listId)
  const busy = busyList(list)
  if (busy) return { ok: false, message: busy }
  for (const edit of edits) {
    if (edit.column < 0 || edit.column >= list.columns.length) {
      return {
        ok: false,
        message: 'Only the list’s own columns can be edited; results are what the service answered.',
      }
    }
    const problem = cellProblem(list.mapping, edit.column, edit.value)
    if (problem) return { ok: false, message: problem }
  }
  const rows = await readRows(database, listId, [...new Set(edits.map((edit) => edit.index))])
  const wanted = new Map<number, { row: StoredRow; values: string[] }>()
  for (const edit of edits) {
    const row = rows.get(edit.index)
    if (!row || row.removedAt !== undefined) continue
    const current = wanted.get(edit.index) ?? { row: stored(row), values: [...row.values] }
    while (current.values.length < list.columns.length) current.values.push('')
    current.values[edit.column] = edit.value
    wanted.set(edit.index, current)
  }
  const changes = [...wanted.values()].filter(({ row, values }) =>
    values.some((value, at) => value !== (row.values[at] ?? '')),
  )
  if (changes.length === 0) return { ok: true, value: null }
  // A row's issues are all of who it is: cells that do not change that leave them as they are.
  const rechecked = changes.filter(({ row, values }) => changesWho(list.mapping, row.values, values))
  const found = await issuesOf(list.mapping, rechecked, known)
  const issues = new Map(rechecked.map(({ row }, at) => [row.index, found[at]!]))
  const at = Date.now()
  const pairs = changes.map(({ row, values }) => ({
    before: row,
    after: withCells(row, values, issues.get(row.index) ?? row.issues, list.mapping, at),
  }))
  const first = edits[0]!
  const label =
    pairs.length === 1
      ? `Edited ${list.columns[first.column] ?? 'a cell'} of row ${(first.index + 1).toLocaleString('en-US')}`
      : `Pasted into ${pairs.length.toLocaleString('en-US')} cells of ${list.columns[first.column] ?? 'a column'}`
  const op = await database.transaction('rw', changeTables(database), async () => {
    await writeRows(database, listId, pairs)
    return record(database, {
      listId,
      kind: 'edit',
      label,
      rows: pairs.length,
      before: pairs.map(({ before }) => before),
      after: pairs.map(({ after }) => after),
    })
  })
  return { ok: true, value: op }
}

function stored(row: RowRecord): StoredRow {
  const { listId: _listId, ...rest } = row
  return rest
}

/** Writes rows over what they were, with the facet counts; in the caller's transaction. */
async function writeRows(
  database: LeadkeeperDb,
  listId: string,
  pairs: { before: StoredRow; after: StoredRow }[],
): Promise<void> {
  await putStoredRows(
    database,
    listId,
    pairs.map(({ after }) => after),
  )
  await applyTally(database, tallyOf(listId, pairs))
}

/** Blocks of rows a change of many rows reads and writes together: a few megabytes at once. */
const blocksAtOnce = 32

/**
 * Sets or clears the rows' removal in the caller's transaction (over `changeTables`), beside their
 * blocks (`removals.ts`): the indexes it changed (a row already so is left as it is).
 */
async function markRemoved(
  database: LeadkeeperDb,
  listId: string,
  indexes: ArrayLike<number>,
  removedAt: number | undefined,
): Promise<Int32Array> {
  const { changed, tally } = await markRemovals(database, listId, indexes, removedAt)
  await applyTally(database, tally)
  return changed
}

/** A list's rows as the user's change names them: "row 12", "3 rows". */
const rowsText = (indexes: ArrayLike<number>) =>
  indexes.length === 1
    ? `row ${(indexes[0]! + 1).toLocaleString('en-US')}`
    : `${indexes.length.toLocaleString('en-US')} rows`

/**
 * Removes rows: they stay in their blocks to be restored, and are no longer shown, sent, counted or
 * exported. Not while a run of the list goes on: its answers are on their way to these rows.
 */
export async function removeRows(
  listId: string,
  indexes: ArrayLike<number>,
  database: LeadkeeperDb = db,
): Promise<Changed<ListOp | null>> {
  return markRows(listId, indexes, 'remove', database)
}

/** Restores removed rows, as they were. */
export async function restoreRows(
  listId: string,
  indexes: ArrayLike<number>,
  database: LeadkeeperDb = db,
): Promise<Changed<ListOp | null>> {
  return markRows(listId, indexes, 'restore', database)
}

async function markRows(
  listId: string,
  indexes: ArrayLike<number>,
  kind: 'remove' | 'restore',
  database: LeadkeeperDb,
): Promise<Changed<ListOp | null>> {
  const list = await listOf(database, listId)
  if (list.state === 'running') {
    return {
      ok: false,
      message: 'A run of this list is going on: rows can be removed or restored once it has finished.',
    }
  }
  const busy = busyList(list)
  if (busy) return { ok: false, message: busy }
  if (kind === 'restore') {
    const append = undoneAppendOf(await opsOf(database, listId).toArray(), indexes)
    if (append) {
      return {
        ok: false,
        message: `${append.label} was undone: Redo brings its rows back. Restore the other rows on their own.`,
      }
    }
  }
  const op = await database.transaction('rw', changeTables(database), async () => {
    const changed = await markRemoved(database, listId, indexes, kind === 'remove' ? Date.now() : undefined)
    if (changed.length === 0) return null
    return record(database, {
      listId,
      kind,
      label: `${kind === 'remove' ? 'Removed' : 'Restored'} ${rowsText(changed)}`,
      rows: changed.length,
      indexes: changed,
    })
  })
  return { ok: true, value: op }
}

/** Renames a list; the name is trimmed, and may not be empty or longer than `maxListName`. */
export async function renameList(
  listId: string,
  name: string,
  database: LeadkeeperDb = db,
): Promise<Changed<ListOp | null>> {
  const next = name.trim()
  if (next === '') return { ok: false, message: 'A list needs a name.' }
  if (next.length > maxListName)
    return { ok: false, message: `A list's name has at most ${maxListName} characters.` }
  const list = await listOf(database, listId)
  if (list.name === next) return { ok: true, value: null }
  const op = await database.transaction('rw', changeTables(database), async () => {
    await database.lists.update(listId, { name: next })
    return record(database, {
      listId,
      kind: 'rename',
      label: `Renamed "${list.name}" to "${next}"`,
      rows: 0,
      names: [list.name, next],
    })
  })
  return { ok: true, value: op }
}

/**
 * Notes in a list's history a change made from elsewhere that cannot be undone (a person forgotten:
 * what it removed is gone); in the caller's transaction or its own.
 */
export async function noteChange(
  listId: string,
  kind: ListOp['kind'],
  label: string,
  rows: number,
  database: LeadkeeperDb = db,
): Promise<ListOp> {
  return database.transaction('rw', changeTables(database), async () =>
    record(database, { listId, kind, label, rows, undoable: false }),
  )
}

/** The list's history, oldest first. */
export function listHistory(listId: string, database: LeadkeeperDb = db): Promise<ListOp[]> {
  return opsOf(database, listId).toArray()
}

/**
 * An edit taken back or done again: each row set to `to` when it holds the answer it held at `from`,
 * else only its cells, under the rules of any edit. So an answer a run wrote since is kept: it was
 * paid for, and it follows who the row is.
 */
async function editsBack(
  database: LeadkeeperDb,
  list: ListRecord,
  from: StoredRow[],
  to: StoredRow[],
): Promise<void> {
  const rows = await readRows(
    database,
    list.id,
    to.map((row) => row.index),
  )
  const at = Date.now()
  const pairs: { before: StoredRow; after: StoredRow }[] = []
  to.forEach((target, offset) => {
    const current = rows.get(target.index)
    if (!current) return
    const now = stored(current)
    const held = sameAnswer(now, from[offset]!)
    const after: StoredRow = held
      ? { ...target }
      : withCells(now, target.values, target.issues, list.mapping, at)
    if (now.removedAt !== undefined) after.removedAt = now.removedAt
    else delete after.removedAt
    pairs.push({ before: now, after })
  })
  await writeRows(database, list.id, pairs)
}

function sameAnswer(a: StoredRow, b: StoredRow): boolean {
  return (
    a.status === b.status &&
    a.changedAt === b.changedAt &&
    JSON.stringify(a.answers ?? null) === JSON.stringify(b.answers ?? null)
  )
}

/** Takes a change back (`back`) or does it again. */
async function replay(database: LeadkeeperDb, list: ListRecord, op: ListOp, back: boolean): Promise<void> {
  switch (op.kind) {
    case 'edit':
      return editsBack(database, list, back ? op.after! : op.before!, back ? op.before! : op.after!)
    case 'remove':
    case 'restore': {
      const remove = (op.kind === 'remove') !== back
      await markRemoved(database, list.id, op.indexes!, remove ? Date.now() : undefined)
      return
    }
    case 'rename':
      await database.lists.update(list.id, { name: op.names![back ? 0 : 1] })
      return
    case 'append': {
      // Undone, the rows are kept removed, for the redo; dropped once it can no longer come (`record`).
      const [first, end] = op.range!
      const indexes = Int32Array.from({ length: end - first }, (_, at) => first + at)
      await markRemoved(database, list.id, indexes, back ? Date.now() : undefined)
      await database.lists.update(list.id, { columns: op.columns![back ? 0 : 1] })
      return
    }
    case 'forget':
      return
  }
}

/** Undoes the list's last change that is not undone; null when there is none. */
export async function undo(listId: string, database: LeadkeeperDb = db): Promise<Changed<ListOp | null>> {
  return step(listId, true, database)
}

/** Does again the first change undone; null when there is none. */
export async function redo(listId: string, database: LeadkeeperDb = db): Promise<Changed<ListOp | null>> {
  return step(listId, false, database)
}

async function step(listId: string, back: boolean, database: LeadkeeperDb): Promise<Changed<ListOp | null>> {
  const list = await listOf(database, listId)
  if (list.state === 'running') {
    return {
      ok: false,
      message: 'A run of this list is going on: changes can be undone once it has finished.',
    }
  }
  const busy = busyList(list)
  if (busy) return { ok: false, message: busy }
  const op = await database.transaction('rw', changeTables(database), async () => {
    const ops = await opsOf(database, listId).toArray()
    const target = back
      ? ops.findLast((one) => one.undone === 0 && one.undoable)
      : ops.find((one) => one.undone === 1)
    if (!target) return null
    await replay(database, (await database.lists.get(listId))!, target, back)
    await database.listOps.update([listId, target.seq], { undone: back ? 1 : 0 })
    await database.lists.update(listId, { updatedAt: Date.now() })
    return target
  })
  return { ok: true, value: op }
}

/**
 * Goes back, or forward, to the list as it was right after change `seq` (0: before every change):
 * the changes after it undone, the undone ones up to it done again.
 */
export async function goToChange(
  listId: string,
  seq: number,
  database: LeadkeeperDb = db,
): Promise<Changed<number>> {
  let steps = 0
  for (;;) {
    const ops = await opsOf(database, listId).toArray()
    const back = ops.findLast((one) => one.undone === 0 && one.undoable && one.seq > seq)
    const forward = ops.find((one) => one.undone === 1 && one.seq <= seq)
    if (!back && !forward) return { ok: true, value: steps }
    const done = await step(listId, back !== undefined, database)
    if (!done.ok) return done
    if (!done.value) return { ok: true, value: steps }
    steps += 1
  }
}

/**
 * A new list of some of a list's rows, in their order (`indexes`), each with its cells, its
 * result and where its answers came from; numbered anew from 1.
 */
export async function listFromRows(
  listId: string,
  indexes: ArrayLike<number>,
  name: string,
  options: {
    /** The new list's id, when the caller claims it first (`window-locks.ts`). */
    id?: string
    /** Rows copied so far, after each page written. */
    onProgress?: (rows: number, of: number) => void
  } = {},
  database: LeadkeeperDb = db,
): Promise<Changed<ListRecord>> {
  const source = await listOf(database, listId)
  const title = name.trim()
  if (title === '') return { ok: false, message: 'A list needs a name.' }
  if (indexes.length === 0)
    return { ok: false, message: 'No rows are shown: there is nothing to make a list of.' }
  const now = Date.now()
  const { appending: _appending, ...whole } = source
  const list: ListRecord = {
    ...whole,
    id: options.id ?? crypto.randomUUID(),
    name: title.slice(0, maxListName),
    createdAt: now,
    updatedAt: now,
    source: { ...source.source, fileName: `${source.name} (rows of the list)` },
    rowCount: 0,
    state: 'importing',
    makingFrom: listId,
    jobIds: [],
    creditsSpent: 0,
  }
  await database.lists.add(list)
  let count = 0
  let writing: Promise<void> = Promise.resolve()
  try {
    // A page of 32 new blocks a transaction, and the counts once, with the list's record. The rows
    // are copied as they are stored (`row-pick.ts`), and the next page's blocks are asked for before
    // this one's are made, so the database reads while the page is copied
    // (`npm run bench -- --only edits`).
    const page = blockSize * blocksAtOnce
    const tally = new FacetTally()
    type Page = { from: number; to: number; found: Map<number, SourceBlock> }
    const read = (from: number): Promise<Page> => {
      const to = Math.min(indexes.length, from + page)
      const numbers = sourceBlocks(indexes, from, to)
      const keys = numbers.map((number): [string, number] => [listId, number])
      const blocks = database
        .transaction('r', [database.listBlocks, database.listFacets, database.listCompanies], async () =>
          Promise.all([
            database.listBlocks.bulkGet(keys),
            database.listFacets.bulkGet(keys),
            database.listCompanies.bulkGet(keys),
          ]),
        )
        .then(([stored, facets, companies]) => {
          const found = new Map<number, SourceBlock>()
          stored.forEach((block, at) => {
            if (block)
              found.set(numbers[at]!, { block, facets: facets[at] ?? null, company: companies[at] ?? null })
          })
          return { from, to, found }
        })
      // Awaited below; if a write fails first, its failure is the one reported.
      blocks.catch(() => undefined)
      return blocks
    }
    let copied = 0
    const write = async (picked: PickedBlock[]) => {
      for (const one of picked) tallyFacetRecords(tally, list.id, one.facets, one.company, null, 1)
      const prepared: PreparedBlocks = {
        listId: list.id,
        blocks: picked.map((one) => one.block),
        facets: picked.map((one) => one.facets),
        companies: picked.map((one) => one.company),
        removals: new Map(),
      }
      await database.transaction('rw', blockTables(database), async () => putBlocks(database, prepared))
      copied += picked.reduce((sum, one) => sum + blockLength(one.block), 0)
      options.onProgress?.(copied, indexes.length)
    }
    // The new block being filled: fewer than a block's rows, carried from one page to the next.
    let picker = new BlockPicker(list.id, 0)
    let next: Promise<Page> | null = read(0)
    // A page's blocks are written while the next page is copied; one write at a time, in order.
    const written = (picked: PickedBlock[]) => {
      const after = writing.then(() => write(picked))
      // Awaited before the next write and at the end, where its failure is reported.
      after.catch(() => undefined)
      return after
    }
    while (next) {
      const { from, to, found }: Page = await next
      next = to < indexes.length ? read(to) : null
      const whole: PickedBlock[] = []
      for (let at = from; at < to; at++) {
        const index = indexes[at]!
        const source = found.get(blockOf(index))
        if (!source || !picker.take(source, index % blockSize)) continue
        count++
        if (picker.size === blockSize) {
          whole.push(picker.done())
          picker = new BlockPicker(list.id, blockOf(count))
        }
      }
      await writing
      if (whole.length > 0) writing = written(whole)
    }
    if (picker.size > 0) writing = written([picker.done()])
    await writing
    await database.transaction('rw', [...countTables(database), database.lists], async () => {
      await applyTally(database, tally)
      await database.lists.update(list.id, {
        rowCount: count,
        state: source.state === 'done' ? 'done' : 'ready',
        makingFrom: undefined,
        updatedAt: Date.now(),
      })
    })
  } catch (error) {
    // A write still pending would put its blocks after they are deleted.
    await writing.catch(() => undefined)
    await database.transaction(
      'rw',
      [...blockTables(database), ...countTables(database), database.lists],
      async () => {
        await deleteBlocks(database, list.id)
        await deleteCounts(database, list.id)
        await database.lists.delete(list.id)
      },
    )
    throw error
  }
  const { makingFrom: _making, ...made } = list
  return { ok: true, value: { ...made, rowCount: count, state: source.state === 'done' ? 'done' : 'ready' } }
}

/**
 * The name of a copy of a list named `name`: "(copy)" after it, or "(copy 2)", "(copy 3)"… where
 * that is taken, counted from the name the list was copied from (a copy of "X (copy)" is "X (copy 2)").
 */
export function copyName(name: string, taken: readonly string[]): string {
  const base = name.replace(/ \(copy(?: \d+)?\)$/, '')
  const names = new Set(taken)
  for (let number = 1; ; number++) {
    const suffix = number === 1 ? ' (copy)' : ` (copy ${number})`
    const candidate = base.slice(0, maxListName - suffix.length) + suffix
    if (!names.has(candidate)) return candidate
  }
}

/** A copy of a list, its rows and results as they are (removed rows too); its history starts anew. */
export async function duplicateList(
  listId: string,
  database: LeadkeeperDb = db,
): Promise<Changed<ListRecord>> {
  const source = await listOf(database, listId)
  const busy = busyList(source)
  if (busy) return { ok: false, message: busy }
  const now = Date.now()
  const copy: ListRecord = {
    ...source,
    id: crypto.randomUUID(),
    name: copyName(
      source.name,
      (await database.lists.toArray()).map((list) => list.name),
    ),
    createdAt: now,
    updatedAt: now,
    state: source.state === 'running' ? 'ready' : source.state,
    jobIds: [],
    creditsSpent: 0,
  }
  await database.transaction(
    'rw',
    [...blockTables(database), ...countTables(database), database.lists],
    async () => {
      await database.lists.add(copy)
      for (const table of blockKeyedTables(database)) {
        const range = table.where(':id').between(...listBlockRange(listId), true, true)
        const keys = (await range.primaryKeys()) as unknown as [string, number][]
        const records = await range.toArray()
        await (table as Dexie.Table<{ listId: string }, [string, number]>).bulkPut(
          records.map((record) => ({ ...record, listId: copy.id })),
          outOfLine(keys.map(([, block]): [string, number] => [copy.id, block])),
        )
      }
      const revs = await database.blockRevs.get(listId)
      if (revs) await database.blockRevs.put({ ...revs, listId: copy.id, revs: [...revs.revs] })
      await copyCounts(database, listId, copy.id)
    },
  )
  // The copy has no redo: the rows an undone append kept for it go, as after a new change.
  const undone = (await listHistory(listId, database)).filter((op) => op.undone === 1)
  if (!undone.some((op) => op.kind === 'append')) return { ok: true, value: copy }
  await database.transaction('rw', changeTables(database), async () =>
    dropAppendedRows(database, copy.id, undone),
  )
  return { ok: true, value: (await database.lists.get(copy.id)) ?? copy }
}
