import Dexie, { cmp, type Collection } from 'dexie'
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

type RowCollection = Collection<RowRecord, [string, number]>

/**
 * The rows of a query as consecutive segments, in order. Index-driven: sorting or filtering on a
 * facet walks that facet's compound index, one key range per chosen value (a range is counted and
 * skipped natively, where `anyOf` would step a cursor); other filters are checked on the rows the
 * index yields. Ties keep import order because an index orders equal keys by primary key.
 */
function rowSegments(database: LeadkeeperDb, listId: string, query: RowQuery): RowCollection[] {
  const filters = activeFilters(query)
  const sortField = query.sort?.field ?? 'index'
  const driver = sortField !== 'index' ? sortField : filters[0]?.[0]
  const descending = query.sort?.direction === 'desc'
  const rest = filters.filter(([field]) => field !== driver)
  const finish = (collection: RowCollection) => {
    const filtered = rest.length > 0 ? collection.and(rowMatches(rest)) : collection
    return descending ? filtered.reverse() : filtered
  }
  if (!driver)
    return [finish(database.rows.where('[listId+index]').between(...listRange(listId), true, true))]
  const values = filters.find(([field]) => field === driver)?.[1]
  const index = `[listId+${driver}]`
  if (!values) return [finish(database.rows.where(index).between(...listRange(listId), true, true))]
  const ordered = [...new Set(values)].sort(cmp)
  if (descending) ordered.reverse()
  return ordered.map((value) => finish(database.rows.where(index).equals([listId, value])))
}

/** One page of a query: `offset` counts rows in the query's order. */
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
  const segments = rowSegments(database, listId, query)
  let skip = offset
  const page: RowRecord[] = []
  for (const segment of segments) {
    if (page.length >= limit) break
    if (skip > 0) {
      const size = await segment.clone().count()
      if (skip >= size) {
        skip -= size
        continue
      }
    }
    page.push(
      ...(await segment
        .offset(skip)
        .limit(limit - page.length)
        .toArray()),
    )
    skip = 0
  }
  return page
}

export async function countRows(
  listId: string,
  query: Pick<RowQuery, 'filters'> = {},
  database: LeadkeeperDb = appDb,
): Promise<number> {
  const counts = await Promise.all(rowSegments(database, listId, query).map((segment) => segment.count()))
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
