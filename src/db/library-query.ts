import type { Collection, Table } from 'dexie'
import { contactKeys, type ContactIndex } from './contact-index'
import {
  contactIndex,
  contactsAtSlots,
  contactsFromNewest,
  contactsWithIds,
  readingPeople,
  readContactIndex,
} from './library-contacts'
import { companyFacets, contactFacets, type CompanyFacet, type ContactFacet } from './library-shape'
import { db as appDb, type LeadkeeperDb } from './schema'
import type { CompanyRecord, ContactRecord, LibraryCountRecord } from './records'
import { matchesWords, searchWords, type LibraryMatch } from './words'
import { nextTurn } from './turns'

/**
 * Searching the offline library: by any word, by facets, or everything, first pages fast on any
 * size, and the facet counts kept by the ingest (`library-ingest.ts`). People are searched in their
 * index (`contact-index.ts`), newest first; companies through IndexedDB's indexes, in name order.
 */

export type { CompanyFacet, ContactFacet } from './library-shape'

export interface LibrarySearch<F extends string> {
  /**
   * Words typed by the user: each must start a word of the record (a word of the name, the email,
   * the domain), whatever the case and accents.
   */
  prefix?: string
  facets?: Partial<Record<F, string[]>>
  /**
   * People only: those at this company domain alone (a company's page). Matched whole, whatever
   * the case; companies ignore it.
   */
  domain?: string
}

export interface LibraryPage<T> {
  /** The first matches, in the order of `matchContactIds` / `matchCompanyDomains`. */
  items: T[]
  /** How many matches are known: all of them when `exact`, otherwise at least this many. */
  total: number
  /** True when `items` holds every match. */
  exact: boolean
}

export interface FacetCount {
  value: string
  count: number
}

/**
 * Matches a search reads first, what the library page shows at once: more than a screen of rows
 * in a tall window (22 rows in a window 1,000 px tall). Each person is read with the block of 100
 * holding them, so a search whose matches are few and spread reads a block for each, and the first
 * page's time grows with its size (`npm run bench -- --only library`). The rest comes by id as the
 * grid asks for it.
 */
export const firstPageSize = 40

/** The first page walks at most this many index entries before leaving the rest to `match*`. */
const firstPageReadCap = 4_000

type Fields = Record<string, unknown>

/**
 * How a search reads a table: the `words` index from the first search word (each record once, in
 * the order of the word it matched by, then its key), the other words and the facets checked on
 * the record. Without words, the first facet's index leads; without either, the name order.
 */
interface Plan<T, I, F extends string> {
  table: Table<T, string, I>
  words: string[]
  facets: [F, string[]][]
}

function criteriaOf<F extends string>(search: LibrarySearch<F>): LibraryMatch<F> {
  const facets = Object.entries(search.facets ?? {}).filter(
    (entry): entry is [F, string[]] => Array.isArray(entry[1]) && entry[1].length > 0,
  )
  const domain = search.domain?.trim().toLowerCase()
  return { words: searchWords(search.prefix ?? ''), facets, ...(domain ? { domain } : {}) }
}

function planOf<T, I, F extends string>(table: Table<T, string, I>, search: LibrarySearch<F>): Plan<T, I, F> {
  return { table, ...criteriaOf(search) }
}

/** True when a search has neither words nor facet nor domain: it matches the whole library. */
export function isEverything<F extends string>(search: LibrarySearch<F>): boolean {
  const { words, facets, domain } = criteriaOf(search)
  return words.length === 0 && facets.length === 0 && domain === undefined
}

/**
 * The records in the plan's order, each once, before the other words and facets are checked: from
 * the first search word in the words index; without words, from the first facet's index (its
 * values in order, then keys); without either, the whole table in name order.
 */
function walk<T, I, F extends string>(plan: Plan<T, I, F>): Collection<T, string, I> {
  const [first] = plan.words
  if (first !== undefined) return plan.table.where('words').startsWith(first).distinct()
  const [facet] = plan.facets
  if (facet) return plan.table.where(facet[0]).anyOf(facet[1])
  return plan.table.orderBy('nameLower')
}

function matches<T, I, F extends string>(plan: Plan<T, I, F>, record: T): boolean {
  const fields = record as Fields
  return (
    (plan.words.length < 2 || matchesWords(fields['words'] as string[], plan.words.slice(1))) &&
    plan.facets.every(([field, values]) => values.includes(String(fields[field])))
  )
}

/**
 * The first `limit` matches, from a walk of the index that stops once enough are found: a broad
 * word over a million records reads a few hundred of them. A rare facet value may need more than
 * `firstPageReadCap` records; then the page holds what was found so far (not exact) and the rest
 * comes from `matchKeys`.
 */
async function firstMatches<T, I, F extends string>(
  plan: Plan<T, I, F>,
  limit: number,
  readCap = firstPageReadCap,
): Promise<LibraryPage<T>> {
  // One more than asked, to know whether the page holds every match.
  const wanted = limit + 1
  let read = wanted
  for (;;) {
    const records = await walk(plan).limit(read).toArray()
    const kept = records.filter((record) => matches(plan, record))
    if (kept.length >= wanted || records.length < read) {
      const page = kept.slice(0, limit)
      return { items: page, total: page.length, exact: kept.length <= limit }
    }
    if (read >= readCap) return { items: kept, total: kept.length, exact: false }
    read = Math.min(read * 4, readCap)
  }
}

/** The primary keys holding any of the values of one facet, from its index. */
async function facetKeys<T, I>(
  table: Table<T, string, I>,
  field: string,
  values: string[],
): Promise<Set<string>> {
  const parts = await Promise.all(values.map((value) => table.where(field).equals(value).primaryKeys()))
  return new Set(parts.flat())
}

/**
 * Every match, in the plan's order. One word: the index's keys alone, each record once; facets are
 * key sets read from their indexes, so no record is read. Several words: the records of the first
 * are read to check the others.
 */
async function matchKeys<T, I, F extends string>(plan: Plan<T, I, F>): Promise<string[]> {
  const range =
    plan.words.length > 1
      ? walk(plan).filter((record) =>
          matchesWords((record as Fields)['words'] as string[], plan.words.slice(1)),
        )
      : walk(plan)
  // Without words the walk is the first facet's index: the other facets remain to be checked.
  const checked = plan.words.length === 0 ? plan.facets.slice(1) : plan.facets
  const [keys, facetSets] = await Promise.all([
    range.primaryKeys(),
    Promise.all(checked.map(([field, values]) => facetKeys(plan.table, field, values))),
  ])
  const unique = plan.words.length === 0 ? keys : [...new Set(keys)]
  return facetSets.length === 0 ? unique : unique.filter((key) => facetSets.every((set) => set.has(key)))
}

/** Reads of one search see one state of the table. */
function reading<T, I, R>(table: Table<T, string, I>, work: () => Promise<R>): Promise<R> {
  return table.db.transaction('r', table, work)
}

function companyPlan(search: LibrarySearch<CompanyFacet>, database: LeadkeeperDb) {
  return planOf(database.companies, search)
}

/**
 * How much of a library a first page reads: `limit` matches (`firstPageSize` by default) within
 * `readCap` index entries (companies) or people checked (contacts).
 */
type FirstPage = { limit?: number; readCap?: number }

/**
 * Reads of the people see one state of their blocks and index; `enough` may leave the index read
 * only from the top (`contactIndex`).
 */
function readingContacts<R>(
  database: LeadkeeperDb,
  work: (index: ContactIndex) => Promise<R>,
  enough?: (index: ContactIndex) => boolean,
): Promise<R> {
  return readingPeople(database, async () => work(await contactIndex(database, enough)))
}

/**
 * People a first page checks at most (a few milliseconds): a rarer match is left to
 * `matchContactIds`, which checks a slice at a time. Also how much a full match checks between two
 * moments given to the page.
 */
const firstPageScan = 100_000
const scanSlice = firstPageScan

/**
 * The first `limit` contacts matching a search (`firstPageSize` by default), newest first, fast on
 * any size: an index not read yet is read from the newest people down only until the page is found.
 */
export function searchContacts(
  search: LibrarySearch<ContactFacet> & FirstPage,
  database: LeadkeeperDb = appDb,
): Promise<LibraryPage<ContactRecord>> {
  const limit = search.limit ?? firstPageSize
  const match = criteriaOf(search)
  const budget = search.readCap ?? firstPageScan
  // One more than asked, to know whether the page holds every match.
  const scan = (index: ContactIndex) => index.scan(match, 0, limit + 1, budget)
  const enough = (index: ContactIndex) => {
    const { found, next } = scan(index)
    return found.length > limit || next >= Math.min(budget, index.size)
  }
  return readingContacts(
    database,
    async (index) => {
      const { found, next } = scan(index)
      const items = await contactsAtSlots(database, found.slice(0, limit))
      return { items, total: items.length, exact: found.length <= limit && next >= index.size }
    },
    enough,
  )
}

/**
 * The ids of every matching contact, in the order `searchContacts` pages them: the index is brought
 * up to date in a transaction, then read a slice at a time, with a moment for the page between.
 */
export async function matchContactIds(
  search: LibrarySearch<ContactFacet>,
  database: LeadkeeperDb = appDb,
): Promise<string[]> {
  const index = await readContactIndex(database)
  const match = criteriaOf(search)
  const size = index.size
  const ids: string[] = []
  for (let from = 0; from < size; from += scanSlice) {
    if (from > 0) await nextTurn()
    for (const slot of index.scan(match, from, Infinity, scanSlice, size).found) ids.push(index.idAt(slot))
  }
  return ids
}

/** The domains of every matching company, in the order `searchCompanies` pages them. */
export function matchCompanyDomains(
  search: LibrarySearch<CompanyFacet>,
  database: LeadkeeperDb = appDb,
): Promise<string[]> {
  const plan = companyPlan(search, database)
  return reading(plan.table, () => matchKeys(plan))
}

/** The first `limit` companies matching a search (`firstPageSize` by default). */
export function searchCompanies(
  search: LibrarySearch<CompanyFacet> & FirstPage,
  database: LeadkeeperDb = appDb,
): Promise<LibraryPage<CompanyRecord>> {
  const plan = companyPlan(search, database)
  return reading(plan.table, () => firstMatches(plan, search.limit ?? firstPageSize, search.readCap))
}

/**
 * People `start` to `start + count` of the whole library in the order of an empty search (newest
 * first), by position: browsing everything needs no key list.
 */
export function contactsAt(start: number, count: number, database: LeadkeeperDb = appDb) {
  return readingPeople(database, () => contactsFromNewest(database, start, count))
}

/** The people with these ids, in that order; an id nobody has is left out. */
export function contactsByIds(ids: readonly string[], database: LeadkeeperDb = appDb) {
  return readingPeople(database, () => contactsWithIds(database, ids))
}

/**
 * The person with this id or, failing that, found by this key ('c:<contact id>', 'e:<email>',
 * `contactKeys`): a search row or a lookup names a person by what the service gave, and the library
 * may hold them under the id they were first stored by (an email, later their contact id too).
 */
export async function contactById(id: string, database: LeadkeeperDb = appDb) {
  return readingPeople(database, async () => {
    const [byId] = await contactsWithIds(database, [id])
    if (byId) return byId
    const index = await contactIndex(database)
    const key = id.startsWith('e:') ? id.toLowerCase() : id
    const slots = index.candidates(key).filter((slot) => index.mayHold(slot, key))
    const found = await contactsAtSlots(database, slots)
    return found.find((person) => contactKeys(person).includes(key))
  })
}

export function companiesAt(start: number, count: number, database: LeadkeeperDb = appDb) {
  return database.companies.orderBy('nameLower').offset(start).limit(count).toArray()
}

const byCount = (a: FacetCount, b: FacetCount) => b.count - a.count || a.value.localeCompare(b.value)

/** Counts per value of a table's facets, most frequent first: the kept counts, a few records. */
async function keptCounts<F extends string>(
  database: LeadkeeperDb,
  table: LibraryCountRecord['table'],
  facets: readonly F[],
): Promise<Record<F, FacetCount[]>> {
  const records = await database.libraryCounts
    .where('[table+facet+value]')
    .between([table, ''], [table, '\uffff'], true, true)
    .toArray()
  const counts = Object.fromEntries(facets.map((facet) => [facet, [] as FacetCount[]])) as Record<
    F,
    FacetCount[]
  >
  for (const { facet, value, count } of records) counts[facet as F]?.push({ value, count })
  for (const facet of facets) counts[facet].sort(byCount)
  return counts
}

export function contactFacetCounts(
  database: LeadkeeperDb = appDb,
): Promise<Record<ContactFacet, FacetCount[]>> {
  return keptCounts(database, 'contacts', contactFacets)
}

export function companyFacetCounts(
  database: LeadkeeperDb = appDb,
): Promise<Record<CompanyFacet, FacetCount[]>> {
  return keptCounts(database, 'companies', companyFacets)
}

/** Each facet's counts as a list, most frequent first, values nobody has left out. */
function countLists<F extends string>(facets: readonly F[], maps: Record<F, Map<string, number>>) {
  const counts = {} as Record<F, FacetCount[]>
  for (const facet of facets)
    counts[facet] = [...maps[facet]]
      .filter(([, count]) => count > 0)
      .map(([value, count]) => ({ value, count }))
      .sort(byCount)
  return counts
}

/**
 * A search's facet counts: per facet, how many of the people the search finds with the other facets
 * have each value (its own values left free), so that a facet's list reads what each value would
 * find. The whole index, a slice at a time with a moment between, as `matchContactIds`.
 */
export async function contactSearchFacetCounts(
  search: LibrarySearch<ContactFacet>,
  database: LeadkeeperDb = appDb,
): Promise<Record<ContactFacet, FacetCount[]>> {
  const index = await readContactIndex(database)
  const match = criteriaOf(search)
  const size = index.size
  const maps = Object.fromEntries(contactFacets.map((facet) => [facet, new Map<string, number>()])) as Record<
    ContactFacet,
    Map<string, number>
  >
  for (let from = 0; from < size; from += scanSlice) {
    if (from > 0) await nextTurn()
    index.countFacets(match, maps, from, scanSlice, size)
  }
  return countLists(contactFacets, maps)
}

/**
 * A search's company facet counts, as `contactSearchFacetCounts` counts people's: from the indexes'
 * keys (each value's companies, those the words find, those the other facets hold), no record read.
 */
export function companySearchFacetCounts(
  search: LibrarySearch<CompanyFacet>,
  database: LeadkeeperDb = appDb,
): Promise<Record<CompanyFacet, FacetCount[]>> {
  const plan = companyPlan(search, database)
  return reading(plan.table, async () => {
    const [byWords, ...held] = await Promise.all([
      plan.words.length > 0 ? matchKeys({ ...plan, facets: [] }).then((keys) => new Set(keys)) : null,
      ...plan.facets.map(([field, values]) => facetKeys(plan.table, field, values)),
    ])
    const maps = {} as Record<CompanyFacet, Map<string, number>>
    await Promise.all(
      companyFacets.map(async (facet) => {
        const sets = [byWords, ...held.filter((_, at) => plan.facets[at]![0] !== facet)].filter(
          (set): set is Set<string> => set !== null && set !== undefined,
        )
        const values = (await plan.table.orderBy(facet).uniqueKeys()).map(String)
        const counts = await Promise.all(
          values.map(async (value) => {
            const range = plan.table.where(facet).equals(value)
            if (sets.length === 0) return [value, await range.count()] as const
            const keys = await range.primaryKeys()
            return [value, keys.filter((key) => sets.every((set) => set.has(key))).length] as const
          }),
        )
        maps[facet] = new Map(counts)
      }),
    )
    return countLists(companyFacets, maps)
  })
}
