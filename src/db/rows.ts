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
      if (before) updated.push({ ...before, ...resultPatch(row, contactByKey.get(row.key) ?? null) })
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

export function rowMatches(filters: [RowFacet, FacetValue[]][]): (row: RowRecord) => boolean {
  return (row) => filters.every(([field, values]) => values.includes(row[field]))
}

/**
 * The rows of a query in order. Index-driven: sorting or filtering on a facet walks that facet's
 * compound index; the other filters are checked on the rows the index yields.
 */
function rowCollection(
  database: LeadkeeperDb,
  listId: string,
  query: RowQuery,
): Collection<RowRecord, [string, number]> {
  const filters = activeFilters(query)
  const sortField = query.sort?.field ?? 'index'
  const driver = sortField !== 'index' ? sortField : filters[0]?.[0]
  let collection: Collection<RowRecord, [string, number]>
  if (!driver) {
    collection = database.rows.where('[listId+index]').between(...listRange(listId), true, true)
  } else {
    const values = filters.find(([field]) => field === driver)?.[1]
    const where = database.rows.where(`[listId+${driver}]`)
    collection = values
      ? where.anyOf(values.map((value) => [listId, value]))
      : where.between(...listRange(listId), true, true)
  }
  const rest = filters.filter(([field]) => field !== driver)
  if (rest.length > 0) collection = collection.and(rowMatches(rest))
  return query.sort?.direction === 'desc' ? collection.reverse() : collection
}

/** One page of a query: `offset` counts rows in the query's order. */
export function pageRows(
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
  const collection = rowCollection(database, listId, query)
  return collection.offset(offset).limit(limit).toArray()
}

export async function countRows(
  listId: string,
  query: Pick<RowQuery, 'filters'> = {},
  database: LeadkeeperDb = appDb,
): Promise<number> {
  const filters = activeFilters(query)
  const [only] = filters
  if (filters.length === 1 && only) {
    // One facet: native index counts per value, no cursor over the rows.
    const [field, values] = only
    const counts = await Promise.all(
      values.map((value) => database.rows.where(`[listId+${field}]`).equals([listId, value]).count()),
    )
    return counts.reduce((sum, count) => sum + count, 0)
  }
  return rowCollection(database, listId, { filters: query.filters }).count()
}

/**
 * Streams the rows of a query in import order, one at a time, without holding the list in memory:
 * what an export of a million rows needs.
 */
export async function eachRow(
  listId: string,
  query: Pick<RowQuery, 'filters'>,
  onRow: (row: RowRecord) => void,
  database: LeadkeeperDb = appDb,
): Promise<void> {
  const filters = activeFilters(query)
  let collection = database.rows.where('[listId+index]').between(...listRange(listId), true, true)
  if (filters.length > 0) collection = collection.and(rowMatches(filters))
  await collection.each(onRow)
}

/** Counts per value of every facet, from the compound indexes alone. */
export async function facetCounts(listId: string, database: LeadkeeperDb = appDb): Promise<RowFacetCounts> {
  const entries = await Promise.all(
    rowFacets.map(async (facet) => {
      const index = database.rows.where(`[listId+${facet}]`)
      const keys = (await index.between(...listRange(listId), true, true).uniqueKeys()) as unknown as [
        string,
        FacetValue,
      ][]
      const counts = await Promise.all(
        keys.map(async ([, value]) => ({
          value,
          count: await database.rows.where(`[listId+${facet}]`).equals([listId, value]).count(),
        })),
      )
      counts.sort((a, b) => b.count - a.count || String(a.value).localeCompare(String(b.value)))
      return [facet, counts] as const
    }),
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
