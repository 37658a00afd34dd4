import type { Table } from 'dexie'
import { blockSize, narrowFacets } from './block-shape'
import { removedStatus, rowFacets, type FacetValue, type RowFacet } from './facet-tally'
import type { LeadkeeperDb } from './schema'
import type { ColumnSnapshot, FacetColumn } from './records'
import { removedMask } from './removals'

/**
 * Filtering and sorting a list over its facet columns: one typed array of codes per facet, built
 * from the blocks' `FacetBlock`s and refreshed block by block as revisions change. A million rows
 * filter or sort in milliseconds, in the query worker; the same code runs on the page in tests.
 */

export interface RowQuery {
  /** Rows whose facet is one of the values; several facets must all match. */
  filters?: Partial<Record<RowFacet, FacetValue[]>>
  /**
   * The list holds removed rows: even a view of the whole list in import order passes over them
   * (every view does, unless its status filter names `removed`).
   */
  hideRemoved?: boolean
  /** Import order unless a facet is given; ties keep import order. */
  sort?: { field: RowFacet | 'index'; direction: 'asc' | 'desc' }
  offset?: number
  limit?: number
}

interface Column {
  values: FacetValue[]
  /**
   * Each value's code; null until a block is placed into a column read whole from a snapshot: a
   * map of a million company names is slow to build, a filter finds its few values by a scan of the
   * dictionary (`maskOf`), and a block written since by one too (`codesFor`).
   */
  lookup: Map<FacetValue, number> | null
  /** Blocks placed by a scan of the dictionary while `lookup` was null (`codesFor`). */
  scans: number
  codes: Int32Array
}

/**
 * Blocks placed by a scan of a column's dictionary before its map is built: a scan costs a small
 * part of building the map, so the few blocks written since a snapshot was stored are placed
 * without it.
 */
const scansBeforeLookup = 32

/** The codes of a block's values in the list's column, a value not there yet added to it. */
function codesFor(column: Column, values: readonly FacetValue[]): number[] {
  let known: Map<FacetValue, number>
  if (column.lookup !== null || column.scans >= scansBeforeLookup) known = lookupOf(column)
  else {
    column.scans += 1
    known = new Map()
    const wanted = new Set(values)
    const all = column.values
    for (let code = 0; code < all.length && known.size < wanted.size; code++) {
      const value = all[code]!
      if (wanted.has(value) && !known.has(value)) known.set(value, code)
    }
  }
  return values.map((value) => {
    let code = known.get(value)
    if (code === undefined) {
      code = column.values.length
      column.values.push(value)
      // With the column's map, that adds it there too; with a scan's, to this block's.
      known.set(value, code)
    }
    return code
  })
}

function lookupOf(column: Column): Map<FacetValue, number> {
  column.lookup ??= new Map(column.values.map((value, code) => [value, code]))
  return column.lookup
}

/** A mask over a column's codes: 1 for the codes of these values. */
function maskOf(column: Column, values: readonly FacetValue[]): Uint8Array {
  const mask = new Uint8Array(column.values.length)
  if (column.lookup) {
    for (const value of values) {
      const code = column.lookup.get(value)
      if (code !== undefined) mask[code] = 1
    }
  } else {
    const wanted = new Set(values)
    column.values.forEach((value, code) => {
      if (wanted.has(value)) mask[code] = 1
    })
  }
  return mask
}

export interface ListColumns {
  listId: string
  /** Rows covered: the last block's first index plus its size. */
  size: number
  /** The revision of each block the narrow facets' columns hold. */
  revs: number[]
  /** The revision of each block the company column holds; null until a query needs that column. */
  companyRevs: number[] | null
  /** The revisions the list's stored `ColumnSnapshot`s hold, as read or last written; null for none. */
  saved: Record<ColumnSnapshot['part'], number[] | null>
  columns: Record<RowFacet, Column>
  /**
   * The removed rows, a byte a row (1 removed); null when none is. Kept apart from the status
   * column, which holds each row's own status (`listRemovals`), and read whole when the list's
   * removals or any block changed.
   */
  removed: Uint8Array | null
  /** The list's removals revision `removed` was read under; null before it is read. */
  removals: number | null
}

function emptyColumns(listId: string): ListColumns {
  const columns = {} as Record<RowFacet, Column>
  for (const facet of rowFacets)
    columns[facet] = { values: [], lookup: new Map(), scans: 0, codes: new Int32Array(0) }
  return {
    listId,
    size: 0,
    revs: [],
    companyRevs: null,
    saved: { narrow: null, company: null },
    columns,
    removed: null,
    removals: null,
  }
}

function grow(columns: ListColumns, size: number): void {
  if (size <= columns.size) return
  for (const facet of rowFacets) {
    const column = columns.columns[facet]
    if (column.codes.length < size) {
      // Room for the list to grow (a list still importing) without copying at every block.
      const next = new Int32Array(Math.max(size, Math.ceil(column.codes.length * 1.5)))
      next.set(column.codes)
      column.codes = next
    }
  }
  columns.size = size
}

/** One block's codes of one facet into the list's column, its values into the list's dictionary. */
function place(columns: ListColumns, facet: RowFacet, block: number, size: number, local: FacetColumn): void {
  const first = block * blockSize
  grow(columns, first + size)
  const column = columns.columns[facet]
  const global = codesFor(column, local.values)
  for (let at = 0; at < size; at++) column.codes[first + at] = global[local.codes[at]!]!
}

/**
 * Facet blocks read by one range read while a whole list's columns load (16,000 rows, a few ms of
 * work): the worker answers the grid's row requests between two.
 */
const rangeSlice = 16

/** The blocks whose revision in `held` differs from `revs`. */
function staleBlocks(revs: readonly number[], held: readonly number[] | null): number[] {
  const stale: number[] = []
  revs.forEach((rev, block) => {
    if (held?.[block] !== rev) stale.push(block)
  })
  return stale
}

/**
 * Records of a table keyed `[listId+block]` for these blocks: range reads (getAll) a slice at a
 * time when most of the list is wanted, so that the worker answers the grid's row requests between
 * slices; single reads otherwise.
 */
async function readFacetRecords<T extends { block: number }>(
  table: Table<T, [string, number]>,
  listId: string,
  stale: number[],
  blocks: number,
  each: (record: T) => void,
): Promise<void> {
  if (stale.length === 0) return
  const wanted = new Set(stale)
  if (stale.length > blocks / 4) {
    for (let first = 0; first < blocks; first += rangeSlice) {
      const slice = await table
        .where(':id')
        .between([listId, first], [listId, first + rangeSlice], true, false)
        .toArray()
      for (const record of slice) if (wanted.has(record.block)) each(record)
    }
  } else {
    const records = await table.bulkGet(stale.map((block): [string, number] => [listId, block]))
    for (const record of records) if (record) each(record)
  }
}

/** A whole stored column into the list's (whose column is empty): its dictionary becomes the list's. */
function placeWhole(
  columns: ListColumns,
  facet: RowFacet,
  stored: NonNullable<ColumnSnapshot['columns'][RowFacet]>,
): void {
  const column = columns.columns[facet]
  column.values = stored.values
  column.lookup = null
  column.scans = 0
  column.codes.fill(0)
  column.codes.set(stored.codes.subarray(0, columns.size))
}

/** The facets each part of a list's stored columns holds. */
const partFacets: Record<ColumnSnapshot['part'], readonly RowFacet[]> = {
  narrow: narrowFacets,
  company: ['company'],
}

/** The revisions a part of the columns holds; null for the company's until it is read. */
const revsOf = (columns: ListColumns, part: ColumnSnapshot['part']): number[] | null =>
  part === 'narrow' ? columns.revs : columns.companyRevs

/**
 * The columns a snapshot holds, placed into `columns` (whose `part` columns are empty); false when
 * there is none, or it holds more blocks than the list has (a list is never shortened, but its blocks
 * may be gone since).
 */
function placeSnapshot(columns: ListColumns, snapshot: ColumnSnapshot | undefined, blocks: number): boolean {
  if (!snapshot || snapshot.revs.length > blocks) return false
  const facets = partFacets[snapshot.part]
  if (facets.some((facet) => !snapshot.columns[facet])) return false
  grow(columns, snapshot.size)
  for (const facet of facets) placeWhole(columns, facet, snapshot.columns[facet]!)
  if (snapshot.part === 'company') columns.companyRevs = [...snapshot.revs]
  else columns.revs = [...snapshot.revs]
  columns.saved[snapshot.part] = [...snapshot.revs]
  return true
}

/**
 * A list's columns, reading only the facet records whose revision differs from `previous`'s, or
 * else from the list's stored snapshot's (all of them without either). The company column, a record
 * of its own and most of what the facets weigh, is read only `withCompany` (a query by company, or
 * columns read ahead); until then it holds nothing. Revisions and facets are read in one
 * transaction, so they agree.
 */
export async function loadColumns(
  database: LeadkeeperDb,
  listId: string,
  previous?: ListColumns,
  withCompany = true,
): Promise<ListColumns> {
  return database.transaction(
    'r',
    [
      database.blockRevs,
      database.listFacets,
      database.listCompanies,
      database.listColumns,
      database.listRemovals,
    ],
    async () => {
      const revisions = await database.blockRevs.get(listId)
      const revs = revisions?.revs ?? []
      const removals = revisions?.removals ?? 0
      let base =
        previous && previous.listId === listId && revs.length >= previous.revs.length ? previous : null
      if (!base) {
        const fresh = emptyColumns(listId)
        if (placeSnapshot(fresh, await database.listColumns.get([listId, 'narrow']), revs.length))
          base = fresh
      }
      if (base && withCompany && base.companyRevs === null) {
        const stored = await database.listColumns.get([listId, 'company'])
        // Asked again after the read: another load of the same columns (a view by company beside
        // the quiet moment's read of that column) may have placed the column and the blocks
        // written since meanwhile, which this would undo.
        if (base.companyRevs === null) placeSnapshot(base, stored, revs.length)
      }
      const stale = staleBlocks(revs, base?.revs ?? null)
      const staleCompanies = withCompany ? staleBlocks(revs, base?.companyRevs ?? null) : []
      const removalsRead = base?.removals === removals && stale.length === 0
      if (base && stale.length === 0 && staleCompanies.length === 0 && removalsRead) return base
      const columns = base ?? emptyColumns(listId)
      await readFacetRecords(database.listFacets, listId, stale, revs.length, (record) => {
        for (const facet of narrowFacets)
          place(columns, facet, record.block, record.size, record.columns[facet])
      })
      await readFacetRecords(database.listCompanies, listId, staleCompanies, revs.length, (record) =>
        place(columns, 'company', record.block, record.size, record.column),
      )
      columns.revs = [...revs]
      if (withCompany) columns.companyRevs = [...revs]
      if (!removalsRead) {
        columns.removed = await removedMask(database, listId, columns.size)
        columns.removals = removals
      }
      return columns
    },
  )
}

/**
 * Blocks a stored snapshot may lag its columns by before it is written again: a small list's
 * columns load from their facet records in a few ms, and a list being enriched changes a few
 * blocks at a time.
 */
export const snapshotSlack = 16

/** The parts of these columns whose stored snapshot lags them by `snapshotSlack` blocks or more. */
export function snapshotsDue(columns: ListColumns): ColumnSnapshot['part'][] {
  return (['narrow', 'company'] as const).filter((part) => {
    const revs = revsOf(columns, part)
    return revs !== null && staleBlocks(revs, columns.saved[part]).length >= snapshotSlack
  })
}

/** A column's codes in the fewest bytes its dictionary allows, copied. */
function compactCodes(column: Column, size: number): Uint8Array | Uint16Array | Int32Array {
  const codes = column.codes.subarray(0, size)
  if (column.values.length <= 0x100) return new Uint8Array(codes)
  if (column.values.length <= 0x10000) return new Uint16Array(codes)
  return codes.slice()
}

/**
 * Writes the snapshots that are due (`snapshotsDue`) of a list's columns, in the query worker once
 * it is quiet: a first filter after a start then reads one record and the blocks written since. The
 * columns are copied before anything is awaited, so a load changing them meanwhile is not mixed in.
 * Nothing is written when the list is gone. (A list deleted and written anew under its id while
 * the worker held its columns would be stored under the old rows' revisions; list ids are random
 * and never reused, else the revisions would need an epoch of their own.) Answers whether anything
 * was written.
 */
export async function saveColumns(database: LeadkeeperDb, columns: ListColumns): Promise<boolean> {
  const snapshots = snapshotsDue(columns).map((part): ColumnSnapshot => {
    const revs = revsOf(columns, part)!
    const stored: ColumnSnapshot['columns'] = {}
    for (const facet of partFacets[part]) {
      const column = columns.columns[facet]
      stored[facet] = { values: [...column.values], codes: compactCodes(column, columns.size) }
    }
    return { listId: columns.listId, part, revs: [...revs], size: columns.size, columns: stored }
  })
  if (snapshots.length === 0) return false
  const written = await database.transaction('rw', [database.blockRevs, database.listColumns], async () => {
    const revs = (await database.blockRevs.get(columns.listId))?.revs
    if (!revs || snapshots.some((snapshot) => snapshot.revs.length > revs.length)) return false
    await database.listColumns.bulkPut(snapshots)
    return true
  })
  if (written) for (const snapshot of snapshots) columns.saved[snapshot.part] = snapshot.revs
  return written
}

/** True when a query filters or sorts by the company, whose column is read only then. */
export function usesCompany(query: Omit<RowQuery, 'offset' | 'limit'>): boolean {
  return query.sort?.field === 'company' || activeFilters(query).some(([facet]) => facet === 'company')
}

/** Orders values as IndexedDB orders keys: numbers before strings, strings by code unit. */
function compareKeys(a: FacetValue, b: FacetValue): number {
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** The facets a query filters on, each with its chosen values. */
export function activeFilters(query: Pick<RowQuery, 'filters'>): [RowFacet, FacetValue[]][] {
  return Object.entries(query.filters ?? {}).filter(
    (entry): entry is [RowFacet, FacetValue[]] => Array.isArray(entry[1]) && entry[1].length > 0,
  )
}

/** Whether a query's status filter names removed rows: else it passes over them. */
export const showsRemoved = (query: Pick<RowQuery, 'filters'>): boolean =>
  (query.filters?.status ?? []).includes(removedStatus)

export const isPlain = (query: Omit<RowQuery, 'offset' | 'limit'>): boolean =>
  !query.hideRemoved &&
  activeFilters(query).length === 0 &&
  (query.sort?.field ?? 'index') === 'index' &&
  query.sort?.direction !== 'desc'

/** Over a removed-rows mask (`ListColumns.removed`): a row passes when it is not removed. */
const keptMask = Uint8Array.of(1, 0)

/**
 * A facet's column as a query reads it: the status column has the removed rows under `removed`
 * (they keep their own status in the column, for when they are restored).
 */
function facetColumn(columns: ListColumns, facet: RowFacet): Column {
  const column = columns.columns[facet]
  const removed = columns.removed
  if (facet !== 'status' || !removed) return column
  let code = column.values.indexOf(removedStatus)
  const values = code < 0 ? [...column.values, removedStatus] : column.values
  if (code < 0) code = column.values.length
  const codes = column.codes.slice(0, columns.size)
  for (let index = 0; index < codes.length; index++) if (removed[index] === 1) codes[index] = code
  return { values, lookup: null, scans: 0, codes }
}

/**
 * The row indexes of a query, in its order: import order, or a facet's order (unknown first, as
 * the empty value sorts first) with ties in import order; `desc` reverses it.
 */
export function positionsOf(columns: ListColumns, query: Omit<RowQuery, 'offset' | 'limit'>): Int32Array {
  const size = columns.size
  const masks: { codes: ArrayLike<number>; mask: Uint8Array }[] = activeFilters(query).map(
    ([facet, values]) => {
      const column = facetColumn(columns, facet)
      return { codes: column.codes, mask: maskOf(column, values) }
    },
  )
  if (!showsRemoved(query) && columns.removed) masks.push({ codes: columns.removed, mask: keptMask })
  let kept = new Int32Array(size)
  let count = 0
  rows: for (let index = 0; index < size; index++) {
    for (const { codes, mask } of masks) if (mask[codes[index]!] === 0) continue rows
    kept[count++] = index
  }
  kept = kept.subarray(0, count)
  const field = query.sort?.field ?? 'index'
  let ordered = kept
  if (field !== 'index') {
    const column = facetColumn(columns, field)
    const byValue = column.values
      .map((_, code) => code)
      .sort((a, b) => compareKeys(column.values[a]!, column.values[b]!))
    const rank = new Int32Array(column.values.length)
    byValue.forEach((code, at) => (rank[code] = at))
    // A counting sort by rank: stable, so ties stay in import order.
    const starts = new Int32Array(byValue.length + 1)
    for (const index of kept) starts[rank[column.codes[index]!]! + 1]! += 1
    for (let at = 1; at < starts.length; at++) starts[at]! += starts[at - 1]!
    ordered = new Int32Array(count)
    for (const index of kept) ordered[starts[rank[column.codes[index]!]!]!++] = index
  }
  if (query.sort?.direction === 'desc') ordered = ordered.slice().reverse()
  return ordered
}
