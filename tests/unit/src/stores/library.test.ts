import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { watch } from 'vue'
import { upsertCompanies, upsertContacts } from '@/db/library-ingest'
import { libraryOf } from '@/db/library-client'
import { matchContactIds } from '@/db/library-query'
import { db } from '@/db/schema'
import type { Provenance } from '@/db/records'
import { firstPageSize, useLibraryStore } from '@/stores/library'
import { notify } from '@/ui/notify'

const source: Provenance = { kind: 'lead_search', id: 's', label: 'Search', at: 1000 }

/** 250 people; 150 have a name starting with "mar", 50 of them in Spain; 10 companies. */
function people(from = 0, count = 250) {
  return Array.from({ length: count }, (_, at) => {
    const i = from + at
    return {
      contact_id: i,
      contact_full_name: `${i % 5 < 3 ? 'Mar' : 'Otto'} Person${String(i).padStart(4, '0')}`,
      contact_email_address: `p${i}@c${i % 10}.com`,
      contact_location_country: i % 5 === 0 ? 'Spain' : 'France',
      company_domain: `c${i % 10}.com`,
      company_name: `Company ${i % 10}`,
      company_industry: i % 2 ? 'retail' : 'software',
    }
  })
}

beforeEach(async () => {
  setActivePinia(createPinia())
  await Promise.all([db.peopleBlocks.clear(), db.peopleKeys.clear(), db.contactRevs.clear()])
  await db.companies.clear()
  await db.libraryCounts.clear()
  await upsertContacts(people(), source)
  await upsertCompanies(people(), source)
})

afterEach(() => {
  useLibraryStore().stopWatching()
  vi.restoreAllMocks()
})

describe('the library store', () => {
  it('shows the first page before the rest of a broad search, without moving it', async () => {
    const store = useLibraryStore()
    const seen: { matching: number; counting: boolean }[] = []
    watch(
      () => store.version,
      () => seen.push({ matching: store.matching, counting: store.counting }),
      { flush: 'sync' },
    )
    store.prefix = 'mar'
    await store.search()
    expect(seen).toEqual([{ matching: firstPageSize, counting: true }])
    const firstRows = (await store.fetchContacts(0, firstPageSize)).map((contact) => contact.id)
    expect(store.matching).toBe(150)
    expect(store.counting).toBe(false)

    const all = await matchContactIds({ prefix: 'mar' })
    expect(firstRows).toEqual(all.slice(0, firstPageSize))
    expect((await store.fetchContacts(0, firstPageSize)).map((contact) => contact.id)).toEqual(firstRows)
    expect((await store.fetchContacts(100, 100)).map((contact) => contact.id)).toEqual(all.slice(100))
    expect(all.every((id) => Number(id.slice(2)) % 5 < 3)).toBe(true)
  })

  it("serves a grid page from the first page's rows and reads only the ones it lacks", async () => {
    const store = useLibraryStore()
    store.prefix = 'mar'
    await store.search()
    // The search has its first page and, after it, every match.
    expect(store.counting).toBe(false)
    const all = await matchContactIds({ prefix: 'mar' })
    const byIds = vi.spyOn(libraryOf(), 'contactsByIds')
    // The grid asks 100 rows at a time, more than the first page holds.
    const rows = await store.fetchContacts(0, 100)
    expect(rows.map((contact) => contact.id)).toEqual(all.slice(0, 100))
    expect(byIds.mock.calls).toEqual([[all.slice(firstPageSize, 100)]])
    byIds.mockClear()
    expect((await store.fetchContacts(0, 10)).map((contact) => contact.id)).toEqual(all.slice(0, 10))
    expect(byIds).not.toHaveBeenCalled()
  })

  it('browses the whole library by position, newest first, from its count', async () => {
    const store = useLibraryStore()
    await store.search()
    expect(store.matching).toBe(250)
    expect(store.counting).toBe(false)
    const all = await matchContactIds({})
    expect(all).toEqual(Array.from({ length: 250 }, (_, i) => `c:${249 - i}`))
    const rows = [...(await store.fetchContacts(0, 100)), ...(await store.fetchContacts(100, 100))]
    rows.push(...(await store.fetchContacts(200, 100)))
    expect(rows.map((contact) => contact.id)).toEqual(all)
    expect((await store.fetchContacts(240, 100)).map((contact) => contact.id)).toEqual(all.slice(240))
    store.tab = 'companies'
    await store.search()
    expect(store.matching).toBe(10)
    expect((await store.fetchCompanies(0, 100)).map((company) => company.name)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Company ${i}`),
    )
  })

  it('filters by facets and answers a narrow search in one step', async () => {
    const store = useLibraryStore()
    store.prefix = 'mar'
    store.setContactFacet('country', ['Spain'])
    await store.search()
    expect(store.matching).toBe(50)
    expect(store.counting).toBe(false)
    const rows = await store.fetchContacts(0, 100)
    expect(rows).toHaveLength(50)
    expect(rows.every((contact) => contact.country === 'Spain' && contact.nameLower.startsWith('mar'))).toBe(
      true,
    )
  })

  it('keeps only the latest of searches typed in a row', async () => {
    const store = useLibraryStore()
    // The broad search takes two steps, the narrow one a single step: it ends first.
    await Promise.all([store.setPrefix('m'), store.setPrefix('otto'), store.setPrefix('p12')])
    const rows = await store.fetchContacts(0, 100)
    // Newest first: people 129 down to 120, then 12.
    expect(rows.map((contact) => contact.email)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => `p12${9 - i}@c${9 - i}.com`),
      'p12@c2.com',
    ])
    expect(store.matching).toBe(11)
  })

  it('switches the grid to companies once their first page is in', async () => {
    const store = useLibraryStore()
    await store.search()
    expect(store.shownTab).toBe('contacts')
    store.tab = 'companies'
    expect(store.shownTab).toBe('contacts')
    store.prefix = 'company'
    store.setCompanyFacet('industry', ['retail'])
    await store.search()
    expect(store.shownTab).toBe('companies')
    expect((await store.fetchCompanies(0, 100)).map((company) => company.domain)).toEqual([
      'c1.com',
      'c3.com',
      'c5.com',
      'c7.com',
      'c9.com',
    ])
  })

  it('follows the library as it grows, with totals and facet counts', async () => {
    const store = useLibraryStore()
    store.prefix = 'otto'
    store.watchLibrary()
    await vi.waitFor(() => {
      expect(store.totals).toEqual({ contacts: 250, companies: 10 })
      expect(store.matching).toBe(100)
      // The search's own counts: every Otto is in France.
      expect(store.contactCounts?.country).toEqual([{ value: 'France', count: 100 }])
    })
    await upsertContacts(people(250, 50), source)
    await vi.waitFor(() => {
      expect(store.totals.contacts).toBe(300)
      expect(store.matching).toBe(120)
      expect(store.counting).toBe(false)
      expect(store.contactCounts?.country).toEqual([{ value: 'France', count: 120 }])
    })
    // Nothing searched: the whole library's kept counts.
    await store.setPrefix('')
    await vi.waitFor(() =>
      expect(store.contactCounts?.country).toEqual([
        { value: 'France', count: 240 },
        { value: 'Spain', count: 60 },
      ]),
    )
  })

  it("never shows an earlier search's facet counts over a later one's", async () => {
    const store = useLibraryStore()
    const service = libraryOf()
    const counted = service.contactFacetCounts.bind(service)
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // The counts of "mar" are slow: they answer only after "otto" has been searched and counted.
    const counts = vi.spyOn(service, 'contactFacetCounts').mockImplementationOnce(async (search) => {
      const answer = await counted(search)
      await held
      return answer
    })
    const mar = store.setPrefix('mar')
    await vi.waitFor(() => expect(counts).toHaveBeenCalledTimes(1))
    await store.setPrefix('otto')
    expect(store.contactCounts?.country).toEqual([{ value: 'France', count: 100 }])
    release()
    await mar
    // "mar" counted France 100 and Spain 50: its late answer is dropped.
    expect(store.contactCounts?.country).toEqual([{ value: 'France', count: 100 }])
    expect(store.matching).toBe(100)
  })

  it('says so when the counts cannot be read, and keeps the matches shown', async () => {
    const store = useLibraryStore()
    // What is said, not the notice: its code loads apart and would outlive the file.
    const said = vi.spyOn(notify, 'error').mockImplementation(() => undefined)
    vi.spyOn(libraryOf(), 'contactFacetCounts').mockRejectedValueOnce(new Error('The library stopped.'))
    await store.setPrefix('otto')
    expect(store.matching).toBe(100)
    expect(said).toHaveBeenCalledWith('The library could not be read: Error: The library stopped.')
    expect(store.contactCounts).toBeNull()
  })

  it("counts each facet over the search's matches, its own values left free", async () => {
    const store = useLibraryStore()
    store.prefix = 'mar'
    await store.setContactFacet('country', ['Spain'])
    expect(store.matching).toBe(50)
    // The 150 Maras by country: the country's own filter is left free.
    expect(store.contactCounts?.country).toEqual([
      { value: 'France', count: 100 },
      { value: 'Spain', count: 50 },
    ])
    await store.setTab('companies')
    await store.setPrefix('company')
    await store.setCompanyFacet('industry', ['retail'])
    // The ten companies by industry, five retail, five software.
    expect(store.companyCounts?.industry).toEqual([
      { value: 'retail', count: 5 },
      { value: 'software', count: 5 },
    ])
  })
})
