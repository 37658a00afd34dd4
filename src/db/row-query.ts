import type { Table } from 'dexie'
import { blockSize, narrowFacets } from './block-shape'
import { rowFacets, type FacetValue, type RowFacet } from './facet-tally'
import type { FacetColumn, LeadkeeperDb } from './schema'

/**
 * Filtering and sorting a list over its facet columns: one typed array of codes per facet, built
 * from the blocks' `FacetBlock`s and refreshed block by block as revisions change. A million rows
 * filter or sort in milliseconds, in the query worker; the same code runs on the page in tests.
 */

export interface RowQuery {
  /** Rows whose facet is one of the values; several facets must all match. */
  filters?: Partial<Record<RowFacet, FacetValue[]>>
  /** Import order unless a facet is given; ties keep import order. */
  sort?: { field: RowFacet | 'index'; direction: 'asc' | 'desc' }
  offset?: number
  limit?: number
}

interface Column {
  values: FacetValue[]
  lookup: Map<FacetValue, number>
  codes: Int32Array
}

export interface ListColumns {
  listId: string
  /** Rows covered: the last block's first index plus its size. */
  size: number
  /** The revision of each block the narrow facets' columns hold. */
  revs: number[]
  /** The revision of each block the company column holds; null until a query needs that column. */
  companyRevs: number[] | null
  columns: Record<RowFacet, Column>
}

function emptyColumns(listId: string): ListColumns {
  const columns = {} as Record<RowFacet, Column>
  for (const facet of rowFacets) columns[facet] = { values: [], lookup: new Map(), codes: new Int32Array(0) }
  return { listId, size: 0, revs: [], companyRevs: null, columns }
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
  const global = local.values.map((value) => {
    let code = column.lookup.get(value)
    if (code === undefined) {
      code = column.values.length
      column.lookup.set(value, code)
      column.values.push(value)
    }
    return code
  })
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
        .where('[listId+block]')
        .between([listId, first], [listId, first + rangeSlice], true, false)
        .toArray()
      for (const record of slice) if (wanted.has(record.block)) each(record)
    }
  } else {
    const records = await table.bulkGet(stale.map((block): [string, number] => [listId, block]))
    for (const record of records) if (record) each(record)
  }
}

/**
 * A list's columns, reading only the facet records whose revision differs from `previous`'s (all of
 * them without it). The company column, a record of its own and most of what the facets weigh, is
 * read only `withCompany` (a query by company, or columns read ahead); until then it holds nothing.
 * Revisions and facets are read in one transaction, so they agree.
 */
export async function loadColumns(
  database: LeadkeeperDb,
  listId: string,
  previous?: ListColumns,
  withCompany = true,
): Promise<ListColumns> {
  return database.transaction(
    'r',
    [database.blockRevs, database.blockFacets, database.blockCompanies],
    async () => {
      const revs = (await database.blockRevs.get(listId))?.revs ?? []
      const base =
        previous && previous.listId === listId && revs.length >= previous.revs.length ? previous : null
      const stale = staleBlocks(revs, base?.revs ?? null)
      const staleCompanies = withCompany ? staleBlocks(revs, base?.companyRevs ?? null) : []
      if (base && stale.length === 0 && staleCompanies.length === 0) return base
      const columns = base ?? emptyColumns(listId)
      await readFacetRecords(database.blockFacets, listId, stale, revs.length, (record) => {
        for (const facet of narrowFacets)
          place(columns, facet, record.block, record.size, record.columns[facet])
      })
      await readFacetRecords(database.blockCompanies, listId, staleCompanies, revs.length, (record) =>
        place(columns, 'company', record.block, record.size, record.column),
      )
      columns.revs = [...revs]
      if (withCompany) columns.companyRevs = [...revs]
      return columns
    },
  )
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

export const isPlain = (query: Omit<RowQuery, 'offset' | 'limit'>): boolean =>
  activeFilters(query).length === 0 &&
  (query.sort?.field ?? 'index') === 'index' &&
  query.sort?.direction !== 'desc'

/**
 * The row indexes of a query, in its order: import order, or a facet's order (unknown first, as
 * the empty value sorts first) with ties in import order; `desc` reverses it.
 */
export function positionsOf(columns: ListColumns, query: Omit<RowQuery, 'offset' | 'limit'>): Int32Array {
  const size = columns.size
  const masks = activeFilters(query).map(([facet, values]) => {
    const column = columns.columns[facet]
    const mask = new Uint8Array(column.values.length)
    for (const value of values) {
      const code = column.lookup.get(value)
      if (code !== undefined) mask[code] = 1
    }
    return { codes: column.codes, mask }
  })
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
    const column = columns.columns[field]
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
