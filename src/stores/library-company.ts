import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { notify } from '@/ui/notify'
import { firstPageSize, type ContactFacet, type FacetCount, type LibrarySearch } from '@/db/library-query'
import { libraryOf } from '@/db/library-client'
import {
  companyByDomain,
  listsNamingCompany,
  searchesOf,
  type CompanyInList,
  type SearchThatFound,
} from '@/db/library-pages'
import type { CompanyRecord, ContactRecord } from '@/db/records'

/**
 * A company's page: its record, the people the library knows there (the library's search and
 * facets, within the company's domain), the lists whose rows name it and the searches that found
 * it. IndexedDB alone, so it works offline; the people are searched in the library worker, as the
 * library's are.
 */
export const useLibraryCompanyStore = defineStore('libraryCompany', () => {
  const domain = ref<string | null>(null)
  /** undefined while it is read; null when the library holds no record of it. */
  const company = shallowRef<CompanyRecord | null | undefined>(undefined)
  const prefix = ref('')
  const facets = ref<Partial<Record<ContactFacet, string[]>>>({})
  /** People at the company, nothing searched: null until counted. */
  const known = ref<number | null>(null)
  /** Rows the grid can show: the first page while `counting`, then every match. */
  const matching = ref(0)
  const counting = ref(false)
  const version = ref(0)
  const counts = shallowRef<Record<ContactFacet, FacetCount[]> | null>(null)
  const lists = shallowRef<CompanyInList[] | null>(null)
  const searches = shallowRef<SearchThatFound[] | null>(null)
  const searched = computed(
    () =>
      prefix.value.trim() !== '' || Object.values(facets.value).some((values) => (values ?? []).length > 0),
  )
  let ids: string[] = []
  let firstPage: ContactRecord[] = []
  /** The company's name as its people's answers spell it (the first page of them, nothing searched). */
  let peopleNames: string[] = []
  let searching = 0
  let listing = 0
  let subscription: Subscription | null = null

  function failed(error: unknown): void {
    notify.error(`The company could not be read: ${String(error)}`)
  }

  function close(): void {
    subscription?.unsubscribe()
    subscription = null
    domain.value = null
  }

  /** Shows a company; its record is followed, and its people searched again when it changes. */
  function open(next: string): void {
    const wanted = next.trim().toLowerCase()
    if (domain.value === wanted) return
    close()
    domain.value = wanted
    company.value = undefined
    prefix.value = ''
    facets.value = {}
    known.value = null
    matching.value = 0
    counts.value = null
    lists.value = null
    searches.value = null
    ids = []
    firstPage = []
    peopleNames = []
    // The people are asked for at once, beside the company's record, not after it.
    void search()
    let first = true
    // A batch of results that names the company writes its record too: its people follow.
    subscription = liveQuery(() => companyByDomain(wanted)).subscribe({
      next: (record) => {
        if (domain.value !== wanted) return
        company.value = record ?? null
        if (!first) void search()
        first = false
        void findLists(wanted)
        searchesOf(record?.sources ?? []).then((found) => {
          if (domain.value === wanted) searches.value = found
        }, failed)
      },
      error: failed,
    })
  }

  function currentSearch(): LibrarySearch<ContactFacet> & { domain: string } {
    return { domain: domain.value ?? '', prefix: prefix.value, facets: facets.value }
  }

  /** The first page of the people searched, then every match and the facets within the company. */
  async function search(): Promise<void> {
    const run = ++searching
    const asked = currentSearch()
    const everyone = !searched.value
    try {
      const first = await libraryOf().searchContacts({ ...asked, limit: firstPageSize })
      if (run !== searching) return
      firstPage = first.items
      ids = first.items.map((person) => person.id)
      matching.value = ids.length
      counting.value = !first.exact
      version.value += 1
      if (everyone && first.exact) known.value = ids.length
      if (everyone) {
        peopleNames = [...new Set(first.items.map((person) => person.companyName))]
        void findLists(asked.domain)
      }
      if (!first.exact) {
        const all = await libraryOf().matchContactIds(asked)
        if (run !== searching) return
        ids = all
        matching.value = all.length
        counting.value = false
        if (everyone) known.value = all.length
      }
      const found = await libraryOf().contactFacetCounts(asked)
      if (run === searching) counts.value = found
    } catch (error) {
      if (run === searching) failed(error)
    }
  }

  /**
   * The lists whose rows name the company: by its name, its domain (rows answered without its
   * name) and as its people's answers spell it, asked again as either comes in.
   */
  async function findLists(at: string): Promise<void> {
    const names = [company.value?.name ?? '', at, ...peopleNames]
    const run = ++listing
    try {
      const found = await listsNamingCompany(names)
      if (domain.value === at && run === listing) lists.value = found
    } catch (error) {
      failed(error)
    }
  }

  function setPrefix(next: string): Promise<void> {
    prefix.value = next
    return search()
  }

  function setFacet(facet: ContactFacet, values: string[]): Promise<void> {
    facets.value = { ...facets.value, [facet]: values }
    return search()
  }

  /**
   * Reads of people by id waiting for the one under way, the latest asked first. A company's
   * people are spread over the library's blocks, each read whole for one person, and a grid asks
   * for a thousand rows past those in view: one read at a time leaves the worker free for the next
   * search, and the rows last asked for (those in view after a scroll) come before the margin.
   */
  const waiting: (() => void)[] = []
  let reading = false

  function nextRead(): void {
    const next = waiting.pop()
    if (!next) {
      reading = false
      return
    }
    reading = true
    next()
  }

  function readInTurn(wanted: string[], opened: string | null): Promise<ContactRecord[]> {
    return new Promise((resolve, reject) => {
      waiting.push(() => {
        // A company left meanwhile: its grid is gone, and nothing is read for it.
        const read =
          opened !== null && domain.value === opened ? libraryOf().contactsByIds(wanted) : Promise.resolve([])
        read.then(resolve, reject).finally(nextRead)
      })
      if (!reading) nextRead()
    })
  }

  /** Rows of the first page as the search read them; the rest by id, a read at a time. */
  async function fetchPeople(start: number, count: number): Promise<ContactRecord[]> {
    const end = start + count
    const served = firstPage.slice(start, end)
    if (served.length === count || end <= firstPage.length) return served
    const from = start + served.length
    const wanted = ids.slice(from, end)
    if (wanted.length === 0) return served
    const rest = await readInTurn(wanted, domain.value)
    return served.length === 0 ? rest : [...served, ...rest]
  }

  return {
    domain,
    company,
    prefix,
    facets,
    known,
    matching,
    counting,
    version,
    counts,
    lists,
    searches,
    searched,
    open,
    close,
    setPrefix,
    setFacet,
    fetchPeople,
  }
})
