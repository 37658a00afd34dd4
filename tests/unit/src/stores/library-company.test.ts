import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { db, rowKey } from '@/db/schema'
import { applyEnrichmentResults } from '@/db/rows'
import { upsertContacts } from '@/db/library-ingest'
import { useLibraryCompanyStore } from '@/stores/library-company'
import { useLibraryPersonStore } from '@/stores/library-person'
import { answerPhrases } from '@/features/library/person-answers'
import { formatDay } from '@/ui/format'
import { found, seed } from '../support/list-fixtures'

/**
 * A list of 30 rows answered by a run: 30 people at seven companies (row i at d{i % 7}.com, named
 * Co{i % 7}), every one filed in the library with their company.
 */
beforeEach(async () => {
  setActivePinia(createPinia())
  await Promise.all(db.tables.map((table) => table.clear()))
  await seed(db, 'L', 30)
  await applyEnrichmentResults(
    'L',
    Array.from({ length: 30 }, (_, index) => ({
      ...found('L', index),
      kinds: ['email' as const, 'phone' as const],
    })),
    Date.UTC(2026, 10, 3),
  )
})

afterEach(() => useLibraryCompanyStore().close())

describe("a company's page", () => {
  it('shows the people known there, the lists naming it and its record, and searches within it', async () => {
    const store = useLibraryCompanyStore()
    store.open('D1.com')
    await expect.poll(() => store.known).toBe(5)
    expect(store.company?.name).toBe('Co1')
    expect(store.matching).toBe(5)
    // Newest first: the order people were filed, from the last.
    const people = await store.fetchPeople(0, 5)
    expect(people.map((one) => one.id)).toEqual(['c:1029', 'c:1022', 'c:1015', 'c:1008', 'c:1001'])
    await expect
      .poll(() => store.lists?.map(({ list, companies, rows }) => [list.id, companies, rows]))
      .toEqual([['L', ['Co1'], 5]])
    await expect.poll(() => store.searches).toEqual([])
    await expect.poll(() => store.counts?.country).toEqual([{ value: 'France', count: 5 }])

    await store.setPrefix('first2')
    expect(store.matching).toBe(2)
    expect((await store.fetchPeople(0, 2)).map((one) => one.fullName)).toEqual([
      'First29 Last29',
      'First22 Last22',
    ])
    await store.setPrefix('')
    await store.setFacet('country', ['Spain'])
    expect(store.matching).toBe(0)
    // What the company holds stays said, whatever is searched.
    expect(store.known).toBe(5)
  })

  it('reads the people past its first page by id, a page at a time, newest first', async () => {
    await upsertContacts(
      Array.from({ length: 150 }, (_, i) => ({
        contact_id: 5000 + i,
        contact_full_name: `Big Person${i}`,
        company_domain: 'big.example',
      })),
      { kind: 'lead_search', id: 'run', label: 'Run', at: 1 },
    )
    const store = useLibraryCompanyStore()
    store.open('big.example')
    await expect.poll(() => store.known).toBe(150)
    const pages = await Promise.all([store.fetchPeople(0, 100), store.fetchPeople(100, 100)])
    const ids = pages.flat().map((one) => one.id)
    expect(ids).toEqual(Array.from({ length: 150 }, (_, i) => `c:${5149 - i}`))
    // A company left: what its grid still asks for is not read.
    store.close()
    expect(await store.fetchPeople(100, 100)).toEqual([])
  })

  it('names the lists asking about a company nobody was found at, by its domain', async () => {
    await seed(db, 'M', 3)
    await applyEnrichmentResults('M', [
      found('M', 0),
      {
        key: rowKey('M', 2),
        status: 'not_found',
        data: { company_domain: 'https://www.Nameless.example/about', custom_fields: [] },
      },
    ])
    const store = useLibraryCompanyStore()
    store.open('nameless.example')
    await expect.poll(() => store.company?.domain).toBe('nameless.example')
    expect(store.company?.name).toBe('')
    await expect
      .poll(() => store.lists?.map(({ list, companies, rows }) => [list.id, companies, rows]))
      .toEqual([['M', ['nameless.example'], 1]])
  })

  it('says the library knows nothing of a company it has never seen', async () => {
    const store = useLibraryCompanyStore()
    store.open('nowhere.example')
    await expect.poll(() => store.company).toBeNull()
    await expect.poll(() => store.known).toBe(0)
    await expect.poll(() => store.lists).toEqual([])
  })
})

describe("a person's page", () => {
  it('shows their rows, their answers with their days, and the searches that found them', async () => {
    const store = useLibraryPersonStore()
    await store.open('c:1003')
    expect(store.person?.fullName).toBe('First3 Last3')
    expect(store.rows).toEqual([{ listId: 'L', listName: 'List L', index: 3 }])
    expect(store.searches).toEqual([])
    const now = Date.UTC(2026, 10, 29)
    // "3 Nov" or "Nov 3", as the locale writes a day.
    const day = formatDay(Date.UTC(2026, 10, 3), now)
    // Row 3's answer had a phone; row 2's did not.
    expect(answerPhrases(store.answers, store.person!, now).map((one) => one.text)).toEqual([
      `email found ${day}`,
      `phone found ${day}`,
    ])
    await store.open('c:1002')
    expect(answerPhrases(store.answers, store.person!, now).map((one) => one.text)).toEqual([
      `email found ${day}`,
      `phone not found ${day}`,
    ])
    await store.open('c:nobody')
    expect(store.person).toBeNull()
    expect(store.rows).toBeNull()
  })
})
