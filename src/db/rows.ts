import Dexie, { type Collection } from 'dexie'
import type { ResultRow } from '@shared/contract'
import {
  applyTally,
  descriptiveFacets,
  FacetTally,
  facetOf,
  isDescriptive,
  listCounts,
  rowFacets,
  unknownValue,
  type FacetValue,
  type RowFacet,
} from './facet-tally'
import { answeredData, rowNotes, withAnswer, type Answer, type Origin } from '@domain/row'
import type { RowDecision } from '@domain/run'
import { asEnrichedRow, contactAnswers, upsertCompanies, upsertContacts } from './library'
import {
  db as appDb,
  parseRowKey,
  type ContactRecord,
  type LeadkeeperDb,
  type Provenance,
  type RowRecord,
} from './schema'

export { rowFacets, type FacetValue, type RowFacet } from './facet-tally'

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

/** A list row with an answer put on it (the domain's rule), its facets following its result. */
function withResult(before: RowRecord, answer: Answer, contactId: string | null): RowRecord {
  const next = withAnswer(before, answer)
  if (next === before || !answer.data) return next
  const result = next.result ?? {}
  for (const facet of descriptiveFacets) delete next[facet]
  const facets = {
    emailStatus: text(result['contact_email_address_status']).toLowerCase(),
    seniority: text(result['contact_seniority']).toLowerCase(),
    country: text(result['contact_location_country']),
    company: text(result['company_name']),
  }
  for (const [facet, value] of Object.entries(facets) as [keyof typeof facets, string][]) {
    if (value !== '') next[facet] = value
  }
  if (text(result['contact_phone_number']) !== '') next.hasPhone = 1
  if (contactId) next.contactId = contactId
  return next
}

/**
 * Puts answers on rows by index, keeping the facet counts with them; in the caller's transaction.
 * A row may take several (one kind from a twin, another from the library): in the order given.
 */
async function putAnswers(
  database: LeadkeeperDb,
  listId: string,
  answers: { index: number; answer: Answer; contactId?: string | null }[],
): Promise<number> {
  const indexes = [...new Set(answers.map(({ index }) => index))]
  const originals = new Map<number, RowRecord>()
  for (const row of await database.rows.bulkGet(indexes.map((index) => [listId, index])))
    if (row) originals.set(row.index, row)
  const rows = new Map(originals)
  const changed = new Map<number, RowRecord>()
  for (const { index, answer, contactId } of answers) {
    const before = rows.get(index)
    if (!before) continue
    // A later run reports the rows it did not send again as known: what an earlier run found stays.
    if (answer.status === 'known' && !answer.data && before.status !== 'pending') continue
    const after = withResult(before, answer, contactId ?? null)
    if (after === before) continue
    rows.set(index, after)
    changed.set(index, after)
  }
  const tally = new FacetTally()
  for (const [index, after] of changed) {
    tally.add(listId, originals.get(index)!, -1)
    tally.add(listId, after, 1)
  }
  await database.rows.bulkPut([...changed.values()])
  await applyTally(database.facetCounts, tally)
  return changed.size
}

/**
 * Puts a batch of the engine's results on the list's rows, joined by row key (never by position),
 * and files the people and companies found in the library, all in one transaction. A row that went
 * with another row of the same person is marked as its twin. Applying the same batch again leaves
 * every record as it was.
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
  const tables = [database.rows, database.lists, database.contacts, database.companies, database.facetCounts]
  return database.transaction('rw', tables, async () => {
    const list = await database.lists.get(listId)
    const source: Provenance = { kind: 'list', id: listId, label: list?.name ?? 'List', at }
    // Twins carry the same payload as the row they went with: the library files each person once.
    const withData = ours.filter(({ row }) => row.data && !row.twinOf)
    // The library learns only what each answer was asked for (a phone-only answer's email status is no answer).
    const contactIds = await upsertContacts(
      withData.map(({ row }) => answeredData(row.data!, row.kinds)),
      source,
      database,
      withData.map(({ row }) => row.kinds ?? []),
    )
    await upsertCompanies(
      withData.map(({ row }) => row.data!),
      source,
      database,
    )
    const contactByKey = new Map(withData.map(({ row }, at) => [row.key, contactIds[at] ?? null]))
    const applied = await putAnswers(
      database,
      listId,
      ours.map(({ row, index }) => {
        const twin = row.twinOf ? parseRowKey(row.twinOf) : null
        const origin: Origin = twin ? { via: 'twin', row: twin.index, at } : { via: 'service', at }
        return {
          index,
          answer: { status: row.status, data: row.data, kinds: row.kinds, origin, note: row.note },
          contactId: contactByKey.get(row.twinOf ?? row.key) ?? null,
        }
      }),
    )
    return { applied }
  })
}

/**
 * Gives rows what other rows of the same person, or the library, already hold, before a run sends
 * anything: marked with where it came from and when it was found, never charged.
 */
export async function applyKnownAnswers(
  listId: string,
  decisions: readonly Pick<RowDecision, 'index' | 'twins' | 'library' | 'outcome'>[],
  database: LeadkeeperDb = appDb,
): Promise<{ applied: number }> {
  const wanted = decisions.filter(
    (decision) =>
      decision.twins.length > 0 ||
      decision.library ||
      decision.outcome === 'invalid' ||
      decision.outcome === 'skipped',
  )
  if (wanted.length === 0) return { applied: 0 }
  return database.transaction('rw', [database.rows, database.contacts, database.facetCounts], async () => {
    const sourceIndexes = [...new Set(wanted.flatMap((decision) => decision.twins.map((twin) => twin.index)))]
    const sources = new Map(
      (await database.rows.bulkGet(sourceIndexes.map((index) => [listId, index])))
        .filter((row): row is RowRecord => row !== undefined)
        .map((row) => [row.index, row]),
    )
    const contactIds = [...new Set(wanted.flatMap((decision) => decision.library?.contactId ?? []))]
    const contacts = new Map(
      (await database.contacts.bulkGet(contactIds))
        .filter((contact): contact is ContactRecord => contact !== undefined)
        .map((contact) => [contact.id, contact]),
    )
    const answers: { index: number; answer: Answer; contactId?: string | null }[] = []
    for (const decision of wanted) {
      if (decision.outcome === 'invalid' || decision.outcome === 'skipped') {
        const status = decision.outcome
        answers.push({ index: decision.index, answer: { status, note: rowNotes[status] } })
        continue
      }
      for (const twin of decision.twins) {
        const source = sources.get(twin.index)
        if (!source?.result) continue
        const at = Math.max(...twin.kinds.map((kind) => source.answers?.[kind] ?? 0))
        answers.push({
          index: decision.index,
          answer: {
            status: source.status === 'found' ? 'found' : 'not_found',
            data: source.result,
            kinds: twin.kinds,
            origin: { via: 'twin', row: source.index, at },
          },
          contactId: source.contactId ?? null,
        })
      }
      const contact = decision.library && contacts.get(decision.library.contactId)
      if (decision.library && contact) {
        const known = contactAnswers(contact)
        const at = Math.max(...decision.library.kinds.map((kind) => known[kind] ?? contact.updatedAt))
        answers.push({
          index: decision.index,
          answer: {
            status: contact.email || contact.phone ? 'found' : 'not_found',
            data: asEnrichedRow(contact.data),
            kinds: decision.library.kinds,
            origin: { via: 'library', contactId: contact.id, at },
          },
          contactId: contact.id,
        })
      }
    }
    return { applied: await putAnswers(database, listId, answers) }
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
  return (row) => filters.every(([field, values]) => values.includes(facetOf(row, field)))
}

type RowCollection = Collection<RowRecord, [string, number]>

async function indexesOf(segment: RowCollection): Promise<number[]> {
  const keys = (await segment.primaryKeys()) as [string, number][]
  return keys.map(([, index]) => index)
}

/** Every row index of the list, in import order. */
function allIndexes(database: LeadkeeperDb, listId: string): Promise<number[]> {
  return indexesOf(database.rows.where('[listId+index]').between(...listRange(listId), true, true))
}

/** The rows whose facet is known, in the facet's order, ties in import order. */
function knownIndexes(database: LeadkeeperDb, listId: string, facet: RowFacet): Promise<number[]> {
  const index = database.rows.where(`[listId+${facet}]`)
  if (!isDescriptive(facet)) return indexesOf(index.between(...listRange(listId), true, true))
  // Past the unknown value: version-1 rows that hold it explicitly are left out with the rest.
  return indexesOf(index.between([listId, unknownValue[facet]], [listId, Dexie.maxKey], false, true))
}

/** The rows whose facet is unknown, in import order: all rows but the known ones. */
async function unknownIndexes(database: LeadkeeperDb, listId: string, facet: RowFacet): Promise<number[]> {
  const [all, known] = await Promise.all([
    allIndexes(database, listId),
    knownIndexes(database, listId, facet),
  ])
  const knownSet = new Set(known)
  return all.filter((index) => !knownSet.has(index))
}

const isUnknown = (facet: RowFacet, value: FacetValue) =>
  isDescriptive(facet) && value === unknownValue[facet]

async function matchingIndexes(
  database: LeadkeeperDb,
  listId: string,
  facet: RowFacet,
  values: FacetValue[],
): Promise<Set<number>> {
  const parts = await Promise.all(
    values.map((value) =>
      isUnknown(facet, value)
        ? unknownIndexes(database, listId, facet)
        : indexesOf(database.rows.where(`[listId+${facet}]`).equals([listId, value])),
    ),
  )
  return new Set(parts.flat())
}

/**
 * The row indexes of a query, in its order: import order, or a facet's order (unknown first) with
 * ties in import order. Read from the indexes' keys alone (no row is loaded), so a grid can hold
 * them for a million-row list and page through any filter by position.
 */
export async function rowIndexes(
  listId: string,
  query: Omit<RowQuery, 'offset' | 'limit'> = {},
  database: LeadkeeperDb = appDb,
): Promise<number[]> {
  const filters = activeFilters(query)
  const sets = await Promise.all(
    filters.map(([field, values]) => matchingIndexes(database, listId, field, values)),
  )
  const keep = (index: number) => sets.every((set) => set.has(index))
  const sortField = query.sort?.field ?? 'index'
  let ordered: number[]
  if (sortField !== 'index') {
    const [unknown, known] = await Promise.all([
      isDescriptive(sortField) ? unknownIndexes(database, listId, sortField) : Promise.resolve([]),
      knownIndexes(database, listId, sortField),
    ])
    ordered = [...unknown, ...known].filter(keep)
  } else if (sets.length > 0) {
    ordered = [...sets[0]!].filter(keep).sort((a, b) => a - b)
  } else {
    ordered = await allIndexes(database, listId)
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
  if (values.some((value) => isUnknown(field, value)))
    return (await rowIndexes(listId, query, database)).length
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

const byCount = (a: RowFacetCount, b: RowFacetCount) =>
  b.count - a.count || String(a.value).localeCompare(String(b.value))

/**
 * Counts per value of every facet, from the list's stored counts (a few records, whatever the size
 * of the list). A descriptive facet's unknown value counts the rows not counted under a known one.
 */
export async function facetCounts(listId: string, database: LeadkeeperDb = appDb): Promise<RowFacetCounts> {
  const records = await listCounts(database.facetCounts, listId).toArray()
  const counts = Object.fromEntries(
    rowFacets.map((facet) => [facet, [] as RowFacetCount[]]),
  ) as RowFacetCounts
  for (const { facet, value, count } of records) counts[facet].push({ value, count })
  const total = counts.status.reduce((sum, { count }) => sum + count, 0)
  for (const facet of descriptiveFacets) {
    const unknown = total - counts[facet].reduce((sum, { count }) => sum + count, 0)
    if (unknown > 0) counts[facet].push({ value: unknownValue[facet], count: unknown })
  }
  for (const facet of rowFacets) counts[facet].sort(byCount)
  return counts
}

/** The numbers behind a list's summary chart, from its facet counts (the page holds them already). */
export function summaryOf(counts: RowFacetCounts): ListSummary {
  const byValue = (facet: RowFacet) =>
    Object.fromEntries(counts[facet].map(({ value, count }) => [String(value), count]))
  return {
    total: counts.status.reduce((sum, { count }) => sum + count, 0),
    byStatus: byValue('status'),
    byEmailStatus: byValue('emailStatus'),
    phoneFound: counts.hasPhone.find(({ value }) => value === 1)?.count ?? 0,
  }
}

/** The numbers behind a list's summary chart. */
export async function listSummary(listId: string, database: LeadkeeperDb = appDb): Promise<ListSummary> {
  return summaryOf(await facetCounts(listId, database))
}
