import { uniqueHeaders } from '@domain/read/sniff'
import { changeTables, dropUndone, listOf, record, type Changed } from './list-ops'
import { blockTables, truncateRows } from './blocks'
import { applyTally, countTables, FacetTally } from './facet-tally'
import { db, type LeadkeeperDb } from './schema'
import type { ListOp, ListRecord } from './records'

/**
 * Rows of another file added to a list: read, checked and stored as an import stores them (the
 * import workers, `storeRows` with an `AppendTarget`), from the list's last row on, then made the
 * list's in one change of its history (`finishAppend`), which undo takes back and redo brings again
 * (`replay` in `list-ops.ts`). Until then the list says an append is under way (`ListRecord.appending`)
 * and takes no other change; an append cancelled, failed or cut off by a restart is taken back whole
 * (`abandonAppend`).
 */

/** The list's column each column of the file goes into, and the list's columns after the append. */
export interface ColumnMatch {
  /** For each column of the file, the list's column its cells go into. */
  targets: number[]
  /** The list's own columns, then those of the file it does not have. */
  columns: string[]
  /** Columns of the file that go into one of the list's own. */
  matched: number
}

/** A column's name as two names are compared: case, and spaces around and within, do not count. */
const nameKey = (name: string): string => name.replace(/\s+/g, ' ').trim().toLowerCase()

/**
 * Matches a file's columns to a list's by name; `chosen`, when given, is the user's choice for each
 * column of the file (a list's column, or -1 for a new one) and wins over the names. A column of the
 * list takes one column of the file; the file's others are added to the list, after its own.
 */
export function matchColumns(
  listColumns: readonly string[],
  fileColumns: readonly string[],
  chosen?: readonly number[],
): ColumnMatch {
  const taken = new Set<number>()
  const picks = fileColumns.map((_, at) => {
    const pick = chosen?.[at]
    if (pick === undefined || pick < 0 || pick >= listColumns.length || taken.has(pick)) return -1
    taken.add(pick)
    return pick
  })
  if (!chosen) {
    const byName = new Map<string, number>()
    listColumns.forEach((name, at) => {
      if (!byName.has(nameKey(name))) byName.set(nameKey(name), at)
    })
    fileColumns.forEach((name, at) => {
      const found = byName.get(nameKey(name))
      if (found === undefined || taken.has(found)) return
      taken.add(found)
      picks[at] = found
    })
  }
  const added = fileColumns.filter((_, at) => picks[at]! < 0)
  const columns = uniqueHeaders([...listColumns, ...added])
  let next = listColumns.length
  const targets = picks.map((pick) => (pick >= 0 ? pick : next++))
  return { targets, columns, matched: taken.size }
}

/**
 * Starts adding rows to a list: refused while a run of it goes on (its answers are on their way to
 * its rows), while it is imported, or while another append goes on. Changes undone can no longer be
 * redone from here, as after any change. Answers the list as it now is, `appending` from its last row.
 */
export async function beginAppend(
  listId: string,
  fileName: string,
  database: LeadkeeperDb = db,
): Promise<Changed<ListRecord>> {
  return database.transaction('rw', changeTables(database), async () => {
    const list = await listOf(database, listId)
    const refused = appendRefusal(list)
    if (refused) return { ok: false, message: refused }
    await dropUndone(database, listId)
    const now = await listOf(database, listId)
    const appending = { from: now.rowCount, fileName }
    await database.lists.update(listId, { appending })
    return { ok: true, value: { ...now, appending } }
  })
}

/** Why rows cannot be added to the list now, if they cannot. */
export function appendRefusal(list: ListRecord): string | null {
  if (list.state === 'running') {
    return 'A run of this list is going on: rows can be added once it has finished.'
  }
  if (list.state === 'importing') return 'The list is still being imported.'
  if (list.appending) return `Rows from “${list.appending.fileName}” are already being added to this list.`
  return null
}

/**
 * Makes the rows stored by an append the list's: its columns (with `widest`, cells past them named by
 * position, as an import names them), its row count, and the change in its history; null when the
 * file had no rows.
 */
export async function finishAppend(
  listId: string,
  rows: number,
  columns: string[],
  widest = 0,
  database: LeadkeeperDb = db,
): Promise<Changed<ListOp | null>> {
  return database.transaction('rw', changeTables(database), async () => {
    const list = await listOf(database, listId)
    if (!list.appending) return { ok: false, message: 'No rows are being added to this list.' }
    const { from, fileName } = list.appending
    const after = widest > columns.length ? uniqueHeaders(columns, widest) : columns
    if (rows === 0) {
      await database.lists.update(listId, { appending: undefined })
      return { ok: true, value: null }
    }
    await database.lists.update(listId, {
      appending: undefined,
      columns: after,
      rowCount: from + rows,
    })
    // Stored uncounted (`appendRows`), every row pending: the list shows them from now on.
    const tally = new FacetTally()
    tally.addValue(listId, 'status', 'pending', rows)
    await applyTally(database, tally)
    const op = await record(database, {
      listId,
      kind: 'append',
      label: `Added ${rows === 1 ? '1 row' : `${rows.toLocaleString('en-US')} rows`} from “${fileName}”`,
      rows,
      range: [from, from + rows],
      columns: [list.columns, after],
    })
    return { ok: true, value: op }
  })
}

/** Takes back an append not finished: the rows it stored go, and the list is as it was before it. */
export async function abandonAppend(listId: string, database: LeadkeeperDb = db): Promise<void> {
  await database.transaction(
    'rw',
    [...blockTables(database), ...countTables(database), database.lists],
    async () => {
      const list = await database.lists.get(listId)
      if (!list?.appending) return
      // Its rows were not counted yet (`appendRows`).
      await truncateRows(database, listId, list.appending.from, false)
      await database.lists.update(listId, { appending: undefined })
    },
  )
}

/**
 * Lists an append was adding rows to, or being made of another's rows, when that was cut off (the
 * window closed), or still being so by a window: to be taken back once no window holds them.
 */
export async function cutOff(database: LeadkeeperDb = db): Promise<ListRecord[]> {
  return database.lists
    .filter((list) => list.appending !== undefined || list.makingFrom !== undefined)
    .toArray()
}
