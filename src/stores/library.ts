import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { ref, shallowRef } from 'vue'
import { notify } from '@/app/notify'
import {
  companyFacetCounts,
  contactFacetCounts,
  matchCompanyDomains,
  matchContactIds,
  type CompanyFacet,
  type ContactFacet,
  type FacetCount,
} from '@/db/library'
import { db, type CompanyRecord, type ContactRecord } from '@/db/schema'

export type LibraryTab = 'contacts' | 'companies'

/**
 * The library section: what the user searches for and which records match. It reads Dexie only,
 * so it works the same offline. Matching keys are held as a plain array (a few bytes per record)
 * and the grid fetches the records a page at a time.
 */
export const useLibraryStore = defineStore('library', () => {
  const tab = ref<LibraryTab>('contacts')
  const prefix = ref('')
  const contactFacets = ref<Partial<Record<ContactFacet, string[]>>>({})
  const companyFacets = ref<Partial<Record<CompanyFacet, string[]>>>({})
  const contactCounts = shallowRef<Record<ContactFacet, FacetCount[]> | null>(null)
  const companyCounts = shallowRef<Record<CompanyFacet, FacetCount[]> | null>(null)
  const totals = ref({ contacts: 0, companies: 0 })
  const matching = ref(0)
  const version = ref(0)
  let keys: string[] = []
  let searching = 0
  let subscription: Subscription | null = null

  /** The library grows while searches and runs go on elsewhere: follow it. */
  function watchLibrary(): void {
    subscription ??= liveQuery(async () => ({
      contacts: await contactFacetCounts(),
      companies: await companyFacetCounts(),
      totals: { contacts: await db.contacts.count(), companies: await db.companies.count() },
    })).subscribe({
      next: (next) => {
        contactCounts.value = next.contacts
        companyCounts.value = next.companies
        totals.value = next.totals
        void search()
      },
      error: (error: unknown) => notify.error(`The library could not be read: ${String(error)}`),
    })
  }

  function stopWatching(): void {
    subscription?.unsubscribe()
    subscription = null
  }

  async function search(): Promise<void> {
    const run = ++searching
    const query = { prefix: prefix.value }
    const next =
      tab.value === 'contacts'
        ? await matchContactIds({ ...query, facets: contactFacets.value })
        : await matchCompanyDomains({ ...query, facets: companyFacets.value })
    if (run !== searching) return
    keys = next
    matching.value = next.length
    version.value += 1
  }

  function setTab(next: LibraryTab): void {
    tab.value = next
    void search()
  }

  function setPrefix(next: string): void {
    prefix.value = next
    void search()
  }

  function setContactFacet(facet: ContactFacet, values: string[]): void {
    contactFacets.value = { ...contactFacets.value, [facet]: values }
    void search()
  }

  function setCompanyFacet(facet: CompanyFacet, values: string[]): void {
    companyFacets.value = { ...companyFacets.value, [facet]: values }
    void search()
  }

  async function fetchContacts(start: number, count: number): Promise<ContactRecord[]> {
    const records = await db.contacts.bulkGet(keys.slice(start, start + count))
    return records.filter((record): record is ContactRecord => record !== undefined)
  }

  async function fetchCompanies(start: number, count: number): Promise<CompanyRecord[]> {
    const records = await db.companies.bulkGet(keys.slice(start, start + count))
    return records.filter((record): record is CompanyRecord => record !== undefined)
  }

  return {
    tab,
    prefix,
    contactFacets,
    companyFacets,
    contactCounts,
    companyCounts,
    totals,
    matching,
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
  }
})
