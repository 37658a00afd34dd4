import Dexie, { type Collection } from 'dexie'
import type { ResultRow } from '@shared/contract'
import { upsertCompanies, upsertContacts } from './library'
import { db as appDb, parseRowKey, type LeadkeeperDb, type Provenance, type RowRecord } from './schema'

/** Row fields with their own `[listId+field]` index: filtering and sorting on them reads no other row. */
export type RowFacet = 'status' | 'emailStatus' | 'seniority' | 'country' | 'company' | 'hasPhone'
export const rowFacets: readonly RowFacet[] = [
  'status',
  'emailStatus',
  'seniority',
  'country',
  'company',
  'hasPhone',
]

export type FacetValue = string | number

export interface RowQuery {
  /** Rows whose facet is one of the values; several facets must all match. */
  filters?: Partial<Record<RowFacet, FacetValue[]>>
  /** Import order unless a facet is given; ties keep import order. */
  sort?: { field: RowFacet | 'index'; direction: 'asc' | 'desc' }
  offset?: number
  limit?: number
}

export interface RowFacetCount {
  value: FacetValue
  count: number
}

export type RowFacetCounts = Record<RowFacet, RowFacetCount[]>

export interface ListSummary {
  total: number
  byStatus: Record<string, number>
  byEmailStatus: Record<string, number>
  phoneFound: number
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : ''
}

/** What a result row changes on its list row; rows without data keep their input and any earlier result. */
function resultPatch(row: ResultRow, contactId: string | null): Partial<RowRecord> {
  if (!row.data) return { status: row.status }
  const { custom_fields: _customFields, ...result } = row.data
  return {
    status: row.status,
    result,
    emailStatus: text(result['contact_email_address_status']).toLowerCase(),
    seniority: text(result['contact_seniority']).toLowerCase(),
    country: text(result['contact_location_country']),
    company: text(result['company_name']),
    hasPhone: text(result['contact_phone_number']) === '' ? 0 : 1,
    ...(contactId ? { contactId } : {}),
  }
}

/**
 * Puts a batch of the engine's results on the list's rows, joined by row key (never by position),
 * and files the people and companies found in the library, all in one transaction. Applying the
 * same batch again leaves every record as it was.
 */
export async function applyEnrichmentResults(
  listId: string,
  rows: ResultRow[],
  at = Date.now(),
  database: LeadkeeperDb = appDb,
): Promise<{ applied: number }> {
  const ours = rows.flatMap((row) => {
    const key = parseRowKey(row.key)
    return key && key.listId === listId ? [{ row, index: key.index }] : []
  })
  const tables = [database.rows, database.lists, database.contacts, database.companies]
  return database.transaction('rw', tables, async () => {
    const list = await database.lists.get(listId)
    const source: Provenance = { kind: 'list', id: listId, label: list?.name ?? 'List', at }
    const withData = ours.filter(({ row }) => row.data)
    const payloads = withData.map(({ row }) => row.data!)
    const contactIds = await upsertContacts(payloads, source, database)
    await upsertCompanies(payloads, source, database)
    const contactByKey = new Map(withData.map(({ row }, at) => [row.key, contactIds[at] ?? null]))
    const existing = await database.rows.bulkGet(ours.map(({ index }) => [listId, index]))
    const updated: RowRecord[] = []
    ours.forEach(({ row }, at) => {
      const before = existing[at]
      if (!before) return
      // A later run reports the rows it did not send again as known: what an earlier run found stays.
      if (row.status === 'known' && !row.data && before.status !== 'pending') return
      updated.push({ ...before, ...resultPatch(row, contactByKey.get(row.key) ?? null) })
    })
    await database.rows.bulkPut(updated)
    return { applied: updated.length }
  })
}

function listRange(listId: string): [unknown[], unknown[]] {
  return [
    [listId, Dexie.minKey],
    [listId, Dexie.maxKey],
  ]
}

function activeFilters(query: RowQuery): [RowFacet, FacetValue[]][] {
  return Object.entries(query.filters ?? {}).filter(
    (entry): entry is [RowFacet, FacetValue[]] => Array.isArray(entry[1]) && entry[1].length > 0,
  )
}

function rowMatches(filters: [RowFacet, FacetValue[]][]): (row: RowRecord) => boolean {
  return (row) => filters.every(([field, values]) => values.includes(row[field]))
}

type RowCollection = Collection<RowRecord, [string, number]>

async function indexesOf(segment: RowCollection): Promise<number[]> {
  const keys = (await segment.primaryKeys()) as [string, number][]
  return keys.map(([, index]) => index)
}

/**
 * The row indexes of a query, in its order: import order, or a facet's order with ties in import
 * order. Read from the indexes' keys alone (no row is loaded), so a grid can hold them for a
 * million-row list and page through any filter by position.
 */
export async function rowIndexes(
  listId: string,
  query: Omit<RowQuery, 'offset' | 'limit'> = {},
  database: LeadkeeperDb = appDb,
): Promise<number[]> {
  const filters = activeFilters(query)
  const sets: Set<number>[] = []
  for (const [field, values] of filters) {
    const parts = await Promise.all(
      values.map((value) => indexesOf(database.rows.where(`[listId+${field}]`).equals([listId, value]))),
    )
    sets.push(new Set(parts.flat()))
  }
  const keep = (index: number) => sets.every((set) => set.has(index))
  const sortField = query.sort?.field ?? 'index'
  let ordered: number[]
  if (sortField !== 'index') {
    const walk = database.rows.where(`[listId+${sortField}]`).between(...listRange(listId), true, true)
    ordered = (await indexesOf(walk)).filter(keep)
  } else if (sets.length > 0) {
    ordered = [...sets[0]!].filter(keep).sort((a, b) => a - b)
  } else {
    ordered = await indexesOf(database.rows.where('[listId+index]').between(...listRange(listId), true, true))
  }
  return query.sort?.direction === 'desc' ? ordered.reverse() : ordered
}

/** The rows at the given indexes, in that order (a missing row is skipped). */
export async function rowsAt(
  listId: string,
  indexes: number[],
  database: LeadkeeperDb = appDb,
): Promise<RowRecord[]> {
  const rows = await database.rows.bulkGet(indexes.map((index) => [listId, index]))
  return rows.filter((row): row is RowRecord => row !== undefined)
}

/**
 * One page of a query: `offset` counts rows in the query's order. An import-order page of the whole
 * list is a key range; any other query finds its row indexes first (see `rowIndexes`).
 */
export async function pageRows(
  listId: string,
  query: RowQuery = {},
  database: LeadkeeperDb = appDb,
): Promise<RowRecord[]> {
  const offset = query.offset ?? 0
  const limit = query.limit ?? 200
  const plain = activeFilters(query).length === 0 && (query.sort?.field ?? 'index') === 'index'
  if (plain && query.sort?.direction !== 'desc') {
    // Row indexes run 0..n-1, so an import-order page is a key range: no cursor has to skip rows.
    return database.rows
      .where('[listId+index]')
      .between([listId, offset], [listId, offset + limit], true, false)
      .toArray()
  }
  const indexes = await rowIndexes(listId, query, database)
  return rowsAt(listId, indexes.slice(offset, offset + limit), database)
}

export async function countRows(
  listId: string,
  query: Pick<RowQuery, 'filters'> = {},
  database: LeadkeeperDb = appDb,
): Promise<number> {
  const filters = activeFilters(query)
  if (filters.length === 0) {
    return database.rows
      .where('[listId+index]')
      .between(...listRange(listId), true, true)
      .count()
  }
  if (filters.length > 1) return (await rowIndexes(listId, query, database)).length
  // One facet: native index counts per value, no cursor over the rows.
  const [field, values] = filters[0]!
  const counts = await Promise.all(
    values.map((value) => database.rows.where(`[listId+${field}]`).equals([listId, value]).count()),
  )
  return counts.reduce((sum, count) => sum + count, 0)
}

/**
 * Walks the rows of a query in import order, a key range at a time, so even a million-row list is
 * never held in memory at once: what an export needs. `onPage` may be async (to yield or report).
 */
export async function eachRowPage(
  listId: string,
  query: Pick<RowQuery, 'filters'>,
  onPage: (rows: RowRecord[]) => void | Promise<void>,
  pageSize = 5000,
  database: LeadkeeperDb = appDb,
): Promise<void> {
  const matches = rowMatches(activeFilters(query))
  const last = await database.rows
    .where('[listId+index]')
    .between(...listRange(listId), true, true)
    .last()
  if (!last) return
  for (let start = 0; start <= last.index; start += pageSize) {
    const page = await database.rows
      .where('[listId+index]')
      .between([listId, start], [listId, start + pageSize], true, false)
      .toArray()
    const kept = page.filter(matches)
    if (kept.length > 0) await onPage(kept)
  }
}

/** Past this many distinct values one pass over the index keys is cheaper than a count per value. */
const countPerValueLimit = 200

async function countFacet(database: LeadkeeperDb, listId: string, facet: RowFacet): Promise<RowFacetCount[]> {
  const index = `[listId+${facet}]`
  const range = () => database.rows.where(index).between(...listRange(listId), true, true)
  const keys = (await range().uniqueKeys()) as unknown as [string, FacetValue][]
  let counts: RowFacetCount[]
  if (keys.length <= countPerValueLimit) {
    counts = await Promise.all(
      keys.map(async ([, value]) => ({
        value,
        count: await database.rows.where(index).equals([listId, value]).count(),
      })),
    )
  } else {
    const tally = new Map<FacetValue, number>()
    await range().eachKey((key) => {
      const value = (key as unknown as [string, FacetValue])[1]
      tally.set(value, (tally.get(value) ?? 0) + 1)
    })
    counts = [...tally].map(([value, count]) => ({ value, count }))
  }
  return counts.sort((a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)))
}

/**
 * Counts per value of every facet, from the compound indexes alone: a native count per value, or
 * one pass over the index keys when a facet (company, say) has many values.
 */
export async function facetCounts(listId: string, database: LeadkeeperDb = appDb): Promise<RowFacetCounts> {
  const entries = await Promise.all(
    rowFacets.map(async (facet) => [facet, await countFacet(database, listId, facet)] as const),
  )
  return Object.fromEntries(entries) as RowFacetCounts
}

/** The numbers behind a list's summary chart. */
export async function listSummary(listId: string, database: LeadkeeperDb = appDb): Promise<ListSummary> {
  const counts = await facetCounts(listId, database)
  const byValue = (facet: RowFacet) =>
    Object.fromEntries(counts[facet].map(({ value, count }) => [String(value), count]))
  return {
    total: counts.status.reduce((sum, { count }) => sum + count, 0),
    byStatus: byValue('status'),
    byEmailStatus: byValue('emailStatus'),
    phoneFound: counts.hasPhone.find(({ value }) => value === 1)?.count ?? 0,
  }
}
