import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { notify } from '@/ui/notify'
import {
  companiesAt,
  companyFacetCounts,
  companySearchFacetCounts,
  contactFacetCounts,
  contactsAt,
  firstPageSize,
  isEverything,
  matchCompanyDomains,
  searchCompanies,
  type CompanyFacet,
  type ContactFacet,
  type FacetCount,
  type LibrarySearch,
} from '@/db/library-query'
import { libraryOf, readLibraryAhead } from '@/db/library-client'
import { countContacts } from '@/db/library-contacts'
import { db } from '@/db/schema'
import type { CompanyRecord, ContactRecord } from '@/db/records'

export type LibraryTab = 'contacts' | 'companies'

/** What a search looks for, in which tab. */
type Searched =
  | { tab: 'contacts'; search: LibrarySearch<ContactFacet> }
  | { tab: 'companies'; search: LibrarySearch<CompanyFacet> }

export { firstPageSize }

/**
 * The library section: what the user searches for and which records match. It reads Dexie only,
 * so it works the same offline. A search shows its first page as soon as a short walk of the indexes
 * finds it, then collects every matching key (a few bytes per record) in the same order, so the
 * rows on screen stay put when the rest arrives; the grid fetches records a page at a time.
 */
export const useLibraryStore = defineStore('library', () => {
  const tab = ref<LibraryTab>('contacts')
  /** The tab whose matches the grid holds: it follows `tab` once that tab's first page is in. */
  const shownTab = ref<LibraryTab>('contacts')
  const prefix = ref('')
  const contactFacets = ref<Partial<Record<ContactFacet, string[]>>>({})
  const companyFacets = ref<Partial<Record<CompanyFacet, string[]>>>({})
  /** The whole library's facet counts, as the ingest keeps them. */
  const keptContactCounts = shallowRef<Record<ContactFacet, FacetCount[]> | null>(null)
  const keptCompanyCounts = shallowRef<Record<CompanyFacet, FacetCount[]> | null>(null)
  /** The facet counts of the latest search with words or facets, counted over its matches. */
  const searchContactCounts = shallowRef<Record<ContactFacet, FacetCount[]> | null>(null)
  const searchCompanyCounts = shallowRef<Record<CompanyFacet, FacetCount[]> | null>(null)
  const contactSearch = computed(() => ({ prefix: prefix.value, facets: contactFacets.value }))
  const companySearch = computed(() => ({ prefix: prefix.value, facets: companyFacets.value }))
  /**
   * What each value of a facet finds with the search as it is (the facet's own values left free):
   * the kept counts when nothing is searched, else the search's own, once counted.
   */
  const contactCounts = computed(() =>
    isEverything(contactSearch.value) ? keptContactCounts.value : searchContactCounts.value,
  )
  const companyCounts = computed(() =>
    isEverything(companySearch.value) ? keptCompanyCounts.value : searchCompanyCounts.value,
  )
  const totals = ref({ contacts: 0, companies: 0 })
  /** Rows the grid can show: the first page while `counting`, then every match. */
  const matching = ref(0)
  /** True while the full match set of the current search is being collected. */
  const counting = ref(false)
  const version = ref(0)
  /** The matching keys in order; null when the search matches the whole library, read by position. */
  let keys: string[] | null = []
  let firstPage: (ContactRecord | CompanyRecord)[] = []
  let searching = 0
  let subscriptions: Subscription[] = []

  function failed(error: unknown): void {
    notify.error(`The library could not be read: ${String(error)}`)
  }

  /** The library grows while searches and runs go on elsewhere: follow it, totals first. */
  function watchLibrary(): void {
    if (subscriptions.length > 0) return
    subscriptions = [
      liveQuery(async () => ({
        contacts: await countContacts(db),
        companies: await db.companies.count(),
      })).subscribe({
        next: (next) => {
          totals.value = next
          void search()
        },
        error: failed,
      }),
    ]
  }

  /**
   * Facet counts read whole indexes (a native count per value), so they start once a first page is
   * on screen, not beside it, and the page never waits for them.
   */
  function watchFacets(): void {
    if (subscriptions.length !== 1) return
    subscriptions.push(
      liveQuery(() => contactFacetCounts()).subscribe({
        next: (next) => (keptContactCounts.value = next),
        error: failed,
      }),
      liveQuery(() => companyFacetCounts()).subscribe({
        next: (next) => (keptCompanyCounts.value = next),
        error: failed,
      }),
    )
  }

  function stopWatching(): void {
    for (const subscription of subscriptions) subscription.unsubscribe()
    subscriptions = []
  }

  async function search(): Promise<void> {
    const run = ++searching
    // What is searched, as it is now: every step of this search reads it, not what is typed meanwhile.
    const searched: Searched =
      tab.value === 'contacts'
        ? { tab: 'contacts', search: contactSearch.value }
        : { tab: 'companies', search: companySearch.value }
    try {
      if (await findMatches(run, searched)) await countFacets(run, searched)
    } catch (error) {
      if (run === searching) failed(error)
    }
  }

  /** The search's first page, then every match; false once a later search has begun. */
  async function findMatches(run: number, searched: Searched): Promise<boolean> {
    const contacts = searched.tab === 'contacts'
    const first =
      searched.tab === 'contacts'
        ? await libraryOf().searchContacts({ ...searched.search, limit: firstPageSize })
        : await searchCompanies({ ...searched.search, limit: firstPageSize })
    if (run !== searching) return false
    shownTab.value = searched.tab
    firstPage = first.items
    keys = contacts
      ? (first.items as ContactRecord[]).map((contact) => contact.id)
      : (first.items as CompanyRecord[]).map((company) => company.domain)
    matching.value = keys.length
    counting.value = !first.exact
    version.value += 1
    watchFacets()
    if (first.exact) return true
    if (isEverything(searched.search)) {
      // Everything, newest first: a count, and rows read by position, without a million keys.
      const total = await (contacts ? countContacts(db) : db.companies.count())
      if (run !== searching) return false
      keys = null
      matching.value = total
      counting.value = false
      return true
    }
    const all =
      searched.tab === 'contacts'
        ? await libraryOf().matchContactIds(searched.search)
        : await matchCompanyDomains(searched.search)
    if (run !== searching) return false
    keys = all
    matching.value = all.length
    counting.value = false
    return true
  }

  /**
   * The facet counts of a search with words or facets, once its matches are shown (a search of
   * everything shows the kept counts). The previous search's stay until these are in.
   */
  async function countFacets(run: number, searched: Searched): Promise<void> {
    if (isEverything(searched.search)) return
    if (searched.tab === 'contacts') {
      const counts = await libraryOf().contactFacetCounts(searched.search)
      if (run === searching) searchContactCounts.value = counts
    } else {
      const counts = await companySearchFacetCounts(searched.search)
      if (run === searching) searchCompanyCounts.value = counts
    }
  }

  function setTab(next: LibraryTab): Promise<void> {
    tab.value = next
    return search()
  }

  function setPrefix(next: string): Promise<void> {
    prefix.value = next
    return search()
  }

  function setContactFacet(facet: ContactFacet, values: string[]): Promise<void> {
    contactFacets.value = { ...contactFacets.value, [facet]: values }
    return search()
  }

  function setCompanyFacet(facet: CompanyFacet, values: string[]): Promise<void> {
    companyFacets.value = { ...companyFacets.value, [facet]: values }
    return search()
  }

  /**
   * Rows of the first page are served as the search read them; the rest by key or by position. A
   * grid page larger than the first page reads only the rows the first page lacks.
   */
  async function fetchRecords<T>(
    byKeys: (keys: string[]) => Promise<T[]>,
    at: (start: number, count: number) => Promise<T[]>,
    start: number,
    count: number,
  ): Promise<T[]> {
    const end = start + count
    const served = firstPage.slice(start, end) as T[]
    if (served.length === count) return served
    const from = start + served.length
    const rest = keys === null ? await at(from, end - from) : await byKeys(keys.slice(from, end))
    return served.length === 0 ? rest : [...served, ...rest]
  }

  function fetchContacts(start: number, count: number): Promise<ContactRecord[]> {
    return fetchRecords<ContactRecord>((ids) => libraryOf().contactsByIds(ids), contactsAt, start, count)
  }

  async function companiesByDomains(domains: string[]): Promise<CompanyRecord[]> {
    const records = await db.companies.bulkGet(domains)
    return records.filter((record): record is CompanyRecord => record !== undefined)
  }

  function fetchCompanies(start: number, count: number): Promise<CompanyRecord[]> {
    return fetchRecords<CompanyRecord>(companiesByDomains, companiesAt, start, count)
  }

  /** One person, by id: what a list row's drawer links to. */
  function contact(id: string): Promise<ContactRecord | undefined> {
    return libraryOf().contactById(id)
  }

  /** The people's index read ahead, where a search's count or a run's estimate will soon need it. */
  function readAhead(): void {
    readLibraryAhead()
  }

  return {
    tab,
    shownTab,
    prefix,
    contactFacets,
    companyFacets,
    contactCounts,
    companyCounts,
    totals,
    matching,
    counting,
    version,
    watchLibrary,
    stopWatching,
    search,
    setTab,
    setPrefix,
    setContactFacet,
    setCompanyFacet,
    fetchContacts,
    fetchCompanies,
    contact,
    readAhead,
  }
})
