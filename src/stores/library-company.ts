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
  let searching = 0
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
    // A batch of results that names the company writes its record too: its people follow.
    subscription = liveQuery(() => companyByDomain(wanted)).subscribe({
      next: (record) => {
        if (domain.value !== wanted) return
        company.value = record ?? null
        void search()
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
      if (everyone) void findLists(asked.domain, first.items)
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

  /** The lists whose rows name the company: by its name and as its people's answers spell it. */
  async function findLists(at: string, people: readonly ContactRecord[]): Promise<void> {
    const names = [company.value?.name ?? '', ...people.map((person) => person.companyName)]
    try {
      const found = await listsNamingCompany(names)
      if (domain.value === at) lists.value = found
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

  /** Rows of the first page as the search read them; the rest by id. */
  async function fetchPeople(start: number, count: number): Promise<ContactRecord[]> {
    const end = start + count
    const served = firstPage.slice(start, end)
    if (served.length === count || end <= firstPage.length) return served
    const from = start + served.length
    const rest = await libraryOf().contactsByIds(ids.slice(from, end))
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
