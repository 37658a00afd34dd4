import type { ResultBatch, ResultRow } from '@shared/contract'
import {
  applyTally,
  descriptiveFacets,
  FacetTally,
  facetOf,
  countTables,
  listCompanyCounts,
  listCounts,
  removedStatus,
  rowFacets,
  unknownValue,
  type FacetValue,
  type RowFacet,
} from './facet-tally'
import { answeredData, rowNotes, withAnswer, type Answer, type Origin } from '@domain/row'
import type { RowDecision } from '@domain/run'
import { blockTables, eachStoredBlock, putRows, readRange, readRows, type BlockRange } from './blocks'
import { contactsWithIds, contactTables } from './library-contacts'
import { asEnrichedRow, contactsOf, domainOf, upsertCompanies, upsertContacts } from './library-ingest'
import { contactAnswers } from './library-shape'
import {
  activeFilters,
  isPlain,
  loadColumns,
  positionsOf,
  showsRemoved,
  usesCompany,
  type RowQuery,
} from './row-query'
import { db as appDb, parseRowKey, type LeadkeeperDb } from './schema'
import type { ContactRecord, Provenance, RowRecord, StoredRow } from './records'

export { removedStatus, rowFacets, type FacetValue, type RowFacet } from './facet-tally'
export type { RowQuery } from './row-query'

export interface RowFacetCount {
  value: FacetValue
  count: number
}

export type RowFacetCounts = Record<RowFacet, RowFacetCount[]>

export interface ListSummary {
  /** Rows shown: every row but the removed ones. */
  total: number
  /** Rows the user removed (kept to be restored). */
  removed: number
  byStatus: Record<string, number>
  byEmailStatus: Record<string, number>
  phoneFound: number
  /** Rows whose email was looked up (they carry a status), and of them those holding an address. */
  emailAnswered: number
  emailFound: number
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
    // A company the answer does not name (nobody was found there) is known by its domain, as the
    // library keys it: its page finds the list's rows by it, and the company filter offers it.
    company: text(result['company_name']) || domainOf(result['company_domain']),
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
  const originals = await readRows(database, listId, [...new Set(answers.map(({ index }) => index))])
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
  await putRows(database, listId, [...changed.values()])
  await applyTally(database, tally)
  return changed.size
}

/**
 * Puts a batch of the engine's results on the list's rows, joined by row key (never by position),
 * and files the people and companies found in the library, all in one transaction. A row that went
 * with another row of the same person is marked as its twin. `at` is when the rows were answered.
 */
export function applyEnrichmentResults(
  listId: string,
  rows: ResultRow[],
  at = Date.now(),
  database: LeadkeeperDb = appDb,
): Promise<{ applied: number }> {
  return applyResultBatches(listId, [{ rows, at }], database)
}

/**
 * The engine's result batches, as fetched, in one transaction: each row answered when its batch was
 * stored (`at`), so applying the same batches again, after a crash before their acknowledgement,
 * leaves every record as it was. A batch without a time (written before batches kept one) is
 * answered now.
 */
export async function applyResultBatches(
  listId: string,
  batches: readonly Pick<ResultBatch, 'rows' | 'at'>[],
  database: LeadkeeperDb = appDb,
): Promise<{ applied: number }> {
  const now = Date.now()
  const ours = batches.flatMap((batch) =>
    batch.rows.flatMap((row) => {
      const key = parseRowKey(row.key)
      return key && key.listId === listId ? [{ row, index: key.index, at: batch.at ?? now }] : []
    }),
  )
  if (ours.length === 0) return { applied: 0 }
  const tables = [
    ...blockTables(database),
    database.lists,
    ...contactTables(database),
    database.companies,
    database.libraryCounts,
    ...countTables(database),
  ]
  // Twins carry the same payload as the row they went with: the library files each person once.
  const withData = ours.filter(({ row }) => row.data && !row.twinOf)
  // The library learns only what each answer was asked for (a phone-only answer's email status is no answer).
  const payloads = withData.map(({ row }) => answeredData(row.data!, row.kinds))
  // Read before the transaction, a slice at a time: the page keeps its turns.
  const people = await contactsOf(payloads)
  return database.transaction('rw', tables, async () => {
    const list = await database.lists.get(listId)
    const latest = Math.max(...batches.map((batch) => batch.at ?? now))
    const source: Provenance = { kind: 'list', id: listId, label: list?.name ?? 'List', at: latest }
    const contactIds = await upsertContacts(
      payloads,
      source,
      database,
      withData.map(({ row }) => row.kinds ?? []),
      people,
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
      ours.map(({ row, index, at }) => {
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
 * A library person's status on a row, as the service gave it on the row it was charged for: found
 * when the service said it enriched them (with or without the kinds asked), or when they hold an
 * email or a phone (a person filed from a search, whose payload does not say).
 */
function libraryStatus(contact: Pick<ContactRecord, 'data' | 'email' | 'phone'>): 'found' | 'not_found' {
  return contact.data['enriched'] === true || contact.email !== '' || contact.phone !== ''
    ? 'found'
    : 'not_found'
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
  const tables = [...blockTables(database), ...contactTables(database), ...countTables(database)]
  return database.transaction('rw', tables, async () => {
    const sourceIndexes = [...new Set(wanted.flatMap((decision) => decision.twins.map((twin) => twin.index)))]
    const sources = await readRows(database, listId, sourceIndexes)
    const contactIds = [...new Set(wanted.flatMap((decision) => decision.library?.contactId ?? []))]
    const contacts = new Map(
      (await contactsWithIds(database, contactIds)).map((contact) => [contact.id, contact]),
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
            status: libraryStatus(contact),
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

/**
 * The row indexes of a query, in its order: import order, or a facet's order (unknown first) with
 * ties in import order. Read from the facet columns alone (no row is loaded). The grid's queries
 * run in the query worker (`list-queries.ts`), which keeps the columns between queries.
 */
export async function rowIndexes(
  listId: string,
  query: Omit<RowQuery, 'offset' | 'limit'> = {},
  database: LeadkeeperDb = appDb,
): Promise<number[]> {
  const columns = await loadColumns(database, listId, undefined, usesCompany(query))
  return Array.from(positionsOf(columns, query))
}

/** The rows at the given indexes, in that order (a missing row is skipped). */
export async function rowsAt(
  listId: string,
  indexes: readonly number[],
  database: LeadkeeperDb = appDb,
): Promise<RowRecord[]> {
  const rows = await readRows(database, listId, indexes)
  return indexes.flatMap((index) => rows.get(index) ?? [])
}

/** One page of a query: `offset` counts rows in the query's order. */
export async function pageRows(
  listId: string,
  query: RowQuery = {},
  database: LeadkeeperDb = appDb,
): Promise<RowRecord[]> {
  const offset = query.offset ?? 0
  const limit = query.limit ?? 200
  // Row indexes run 0..n-1, so an import-order page is a range of blocks.
  if (isPlain(query)) return readRange(database, listId, offset, offset + limit)
  const indexes = await rowIndexes(listId, query, database)
  return rowsAt(listId, indexes.slice(offset, offset + limit), database)
}

export async function countRows(
  listId: string,
  query: Pick<RowQuery, 'filters'> = {},
  database: LeadkeeperDb = appDb,
): Promise<number> {
  const columns = await loadColumns(database, listId, undefined, usesCompany(query))
  return isPlain(query) && !columns.removed ? columns.size : positionsOf(columns, query).length
}

/**
 * Walks the rows of a query in import order, a few blocks at a time, so even a million-row list is
 * never held in memory at once: what an export needs. `onPage` may be async (to yield or report).
 * The rows are as stored, without their list's id: a million of them are not copied to add it.
 * `range`: only these blocks, for an export in parts.
 */
export async function eachRowPage(
  listId: string,
  query: Pick<RowQuery, 'filters'>,
  onPage: (rows: StoredRow[]) => void | Promise<void>,
  pageSize = 5000,
  database: LeadkeeperDb = appDb,
  range?: BlockRange,
): Promise<void> {
  const filters = activeFilters(query)
  const hides = !showsRemoved(query)
  const matches = (row: StoredRow) =>
    (!hides || row.removedAt === undefined) &&
    filters.every(([field, values]) => values.includes(facetOf(row, field)))
  let page: StoredRow[] = []
  await eachStoredBlock(
    database,
    listId,
    async (rows) => {
      if (filters.length === 0 && !rows.some((row) => row.removedAt !== undefined)) page.push(...rows)
      else for (const row of rows) if (matches(row)) page.push(row)
      if (page.length >= pageSize) {
        const full = page
        page = []
        await onPage(full)
      }
    },
    10,
    range,
  )
  if (page.length > 0) await onPage(page)
}

const byCount = (a: RowFacetCount, b: RowFacetCount) =>
  b.count - a.count || String(a.value).localeCompare(String(b.value))

/**
 * Counts per value of every facet, from the list's stored counts (a few records, whatever the size
 * of the list). A descriptive facet's unknown value counts the rows not counted under a known one.
 */
export async function facetCounts(listId: string, database: LeadkeeperDb = appDb): Promise<RowFacetCounts> {
  const [records, companies] = await database.transaction('r', countTables(database), async () =>
    Promise.all([
      listCounts(database.facetCounts, listId).toArray(),
      listCompanyCounts(database.companyCounts, listId).toArray(),
    ]),
  )
  const counts = Object.fromEntries(
    rowFacets.map((facet) => [facet, [] as RowFacetCount[]]),
  ) as RowFacetCounts
  for (const { facet, value, count } of records) counts[facet].push({ value, count })
  for (const { names, counts: held } of companies)
    names.forEach((name, at) => counts.company.push({ value: name, count: held[at]! }))
  // A removed row is counted under its status alone (`countedValues`).
  const total = shownCount(counts)
  for (const facet of descriptiveFacets) {
    const unknown = total - counts[facet].reduce((sum, { count }) => sum + count, 0)
    if (unknown > 0) counts[facet].push({ value: unknownValue[facet], count: unknown })
  }
  for (const facet of rowFacets) counts[facet].sort(byCount)
  return counts
}

/** Rows the user removed, from a list's facet counts. */
export function removedCount(counts: Pick<RowFacetCounts, 'status'>): number {
  return counts.status.find(({ value }) => value === removedStatus)?.count ?? 0
}

/** Rows shown (every row but the removed ones), from a list's facet counts. */
export function shownCount(counts: Pick<RowFacetCounts, 'status'>): number {
  return counts.status.reduce((sum, { value, count }) => (value === removedStatus ? sum : sum + count), 0)
}

/** The numbers behind a list's summary chart, from its facet counts (the page holds them already). */
export function summaryOf(counts: RowFacetCounts): ListSummary {
  const byValue = (facet: RowFacet) =>
    Object.fromEntries(counts[facet].map(({ value, count }) => [String(value), count]))
  const removed = removedCount(counts)
  const byStatus = byValue('status')
  delete byStatus[removedStatus]
  const byEmailStatus = byValue('emailStatus')
  // Every status but "not found" comes with an address, undeliverable ones included.
  const answered = Object.entries(byEmailStatus).filter(([status]) => status !== '')
  return {
    total: shownCount(counts),
    removed,
    byStatus,
    byEmailStatus,
    phoneFound: counts.hasPhone.find(({ value }) => value === 1)?.count ?? 0,
    emailAnswered: answered.reduce((sum, [, count]) => sum + count, 0),
    emailFound: answered.reduce((sum, [status, count]) => sum + (status === 'not_found' ? 0 : count), 0),
  }
}

/** The numbers behind a list's summary chart. */
export async function listSummary(listId: string, database: LeadkeeperDb = appDb): Promise<ListSummary> {
  return summaryOf(await facetCounts(listId, database))
}
