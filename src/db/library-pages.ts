import { companyBucket } from './facet-tally'
import { domainOf } from './library-ingest'
import { rowIndexes, rowsAt } from './rows'
import { db as appDb, type LeadkeeperDb } from './schema'
import { contactById, contactsByIds, matchContactIds } from './library-query'
import type { CompanyRecord, ListRecord, Provenance, SearchRun } from './records'

/**
 * What a company's page and a person's page read besides the people: the lists whose rows name a
 * company, the searches that found a record, and the list rows a person's answers are on. Lists
 * are found by their kept company counts (a name's bucket, a record a list), never by reading
 * rows; a person's rows by the list's company column, then the few rows it names.
 */

export interface CompanyInList {
  list: Pick<ListRecord, 'id' | 'name' | 'rowCount' | 'updatedAt'>
  /** The company's names as the list's rows spell them: what the list's company filter takes. */
  companies: string[]
  rows: number
}

export async function companyByDomain(
  domain: string,
  database: LeadkeeperDb = appDb,
): Promise<CompanyRecord | undefined> {
  return database.companies.get(domain.trim().toLowerCase())
}

/**
 * Lists whose rows name the company by any of these names (a name a row's answer gave it), each
 * with how many rows do: most rows first. The buckets of the names, a record a list and bucket.
 */
export async function listsNamingCompany(
  names: readonly string[],
  database: LeadkeeperDb = appDb,
): Promise<CompanyInList[]> {
  const spelt = [...new Set(names.map((name) => name.trim()).filter(Boolean))]
  if (spelt.length === 0) return []
  const buckets = [...new Set(spelt.map(companyBucket))]
  return database.transaction('r', [database.lists, database.companyCounts], async () => {
    const lists = await database.lists.toArray()
    const keys = lists.flatMap((list) => buckets.map((bucket): [string, number] => [list.id, bucket]))
    const blocks = await database.companyCounts.bulkGet(keys)
    const found = new Map<string, CompanyInList>()
    lists.forEach(({ id, name, rowCount, updatedAt }, at) => {
      const held = new Map<string, number>()
      for (const block of blocks.slice(at * buckets.length, (at + 1) * buckets.length))
        block?.names.forEach((company, place) => held.set(company, block.counts[place]!))
      for (const company of spelt) {
        const rows = held.get(company)
        if (!rows) continue
        const known = found.get(id) ?? { list: { id, name, rowCount, updatedAt }, companies: [], rows: 0 }
        known.companies.push(company)
        known.rows += rows
        found.set(id, known)
      }
    })
    return [...found.values()].sort((a, b) => b.rows - a.rows || b.list.updatedAt - a.list.updatedAt)
  })
}

export interface SearchThatFound {
  source: Provenance
  /** The run as the searches store keeps it; absent once the run is deleted. */
  run?: SearchRun
}

/** The lead and company searches among where a record came from, newest first, with their runs. */
export async function searchesOf(
  sources: readonly Provenance[],
  database: LeadkeeperDb = appDb,
): Promise<SearchThatFound[]> {
  const searches = sources.filter(
    (source) => source.kind === 'lead_search' || source.kind === 'company_search',
  )
  const runs = await database.searchRuns.bulkGet(searches.map((source) => source.id))
  return searches
    .map((source, at) => (runs[at] ? { source, run: runs[at] } : { source }))
    .sort((a, b) => b.source.at - a.source.at)
}

export interface PersonRow {
  listId: string
  listName: string
  /** The row's index in its list (shown as index + 1). */
  index: number
}

/**
 * Every list row whose answer is this person: in the lists whose rows name their company, the rows
 * of that company (from the list's company column), kept where the row resolved to them. Rows are
 * read for that company only, a few blocks at most.
 */
export async function personRows(id: string, database: LeadkeeperDb = appDb): Promise<PersonRow[]> {
  const person = await contactById(id, database)
  if (!person) return []
  // Rows answered before a move name the company they were at then.
  const before = (person.changes ?? []).flatMap((change) => (change.field === 'company' ? [change.from] : []))
  // A row whose answer named no company is counted under the domain (`withResult`, rows.ts).
  const names = [
    person.companyName,
    String(person.data['company_name'] ?? ''),
    domainOf(person.companyDomain),
    ...before,
  ]
  const lists = await listsNamingCompany(names, database)
  const found: PersonRow[] = []
  for (const { list, companies } of lists) {
    const indexes = await rowIndexes(list.id, { filters: { company: companies } }, database)
    for (const row of await rowsAt(list.id, indexes, database))
      if (row.contactId === id) found.push({ listId: list.id, listName: list.name, index: row.index })
  }
  return found
}

/**
 * How many people a list's rows brought into the library whose latest answer, from any source,
 * changed their company, title or email: the few the facet finds, read to see their sources.
 */
export async function changedInList(listId: string, database: LeadkeeperDb = appDb): Promise<number> {
  const ids = await matchContactIds({ facets: { changed: ['changed'] } }, database)
  const people = await contactsByIds(ids, database)
  return people.filter((person) =>
    person.sources.some((source) => source.kind === 'list' && source.id === listId),
  ).length
}
