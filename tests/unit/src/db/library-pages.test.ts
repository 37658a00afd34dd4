import 'fake-indexeddb/auto'
import { describe, expect, it, vi } from 'vitest'
import { contactBlockSize } from '@/db/contact-index'
import { LeadkeeperDb, rowKey } from '@/db/schema'
import type { Provenance, SearchRun } from '@/db/records'
import { upsertCompanies, upsertContacts } from '@/db/library-ingest'
import { contactSearchFacetCounts, isEverything, matchContactIds, searchContacts } from '@/db/library-query'
import {
  changedInList,
  companyByDomain,
  listsNamingCompany,
  personRows,
  searchesOf,
} from '@/db/library-pages'
import { libraryService } from '@/db/library-service'
import { applyEnrichmentResults } from '@/db/rows'
import { partFetchedAt } from '@/components/company/company-fields'
import { found, seed } from '../support/list-fixtures'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())
const source = (kind: Provenance['kind'], id: string, at = 1000): Provenance => ({ kind, id, label: id, at })

function person(i: number, domain: string, extra: Record<string, unknown> = {}) {
  return {
    contact_id: i,
    contact_first_name: `Ann${i}`,
    contact_last_name: `Ek`,
    contact_full_name: `Ann${i} Ek`,
    contact_email_address: `ann${i}@${domain}`,
    contact_email_address_status: i % 2 ? 'deliverable' : 'catch_all',
    contact_seniority: i % 3 ? 'manager' : 'vp',
    contact_location_country: 'France',
    company_name: domain,
    company_domain: domain,
    ...extra,
  }
}

describe("a company's people", () => {
  it('are those at its domain exactly, newest first, searched and counted within it', async () => {
    const database = freshDb()
    const payloads = [
      ...Array.from({ length: 30 }, (_, i) => person(i, i % 3 === 0 ? 'globex.com' : 'initech.com')),
      // A domain that starts with the company's, and a name that holds it as a word: not its people.
      person(100, 'globex.com.au'),
      person(101, 'initech.com', { contact_full_name: 'globex.com Fan', contact_first_name: 'globex.com' }),
      person(102, 'GLOBEX.com'),
    ]
    await upsertContacts(payloads, source('list', 'l'), database)

    const all = await matchContactIds({ domain: 'Globex.com' }, database)
    const expected = [102, 27, 24, 21, 18, 15, 12, 9, 6, 3, 0].map((i) => `c:${i}`)
    expect(all).toEqual(expected)
    const first = await searchContacts({ domain: 'globex.com', limit: 4 }, database)
    expect(first.items.map((one) => one.id)).toEqual(expected.slice(0, 4))
    expect(first.exact).toBe(false)
    expect((await searchContacts({ domain: 'globex.com' }, database)).exact).toBe(true)

    // The library's search and facets, within the company.
    const vps = await matchContactIds({ domain: 'globex.com', facets: { seniority: ['vp'] } }, database)
    expect(vps).toEqual(
      ['c:102', 'c:27', 'c:24', 'c:21', 'c:18', 'c:15', 'c:12', 'c:9', 'c:6', 'c:3', 'c:0'].filter(
        (id) => Number(id.slice(2)) % 3 === 0,
      ),
    )
    expect(await matchContactIds({ domain: 'globex.com', prefix: 'ann2' }, database)).toEqual([
      'c:27',
      'c:24',
      'c:21',
    ])
    const counts = await contactSearchFacetCounts({ domain: 'globex.com' }, database)
    const total = counts.emailStatus.reduce((sum, { count }) => sum + count, 0)
    expect(total).toBe(11)
    expect(counts.emailStatus).toEqual([
      { value: 'catch_all', count: 6 },
      { value: 'deliverable', count: 5 },
    ])
    expect(isEverything({ domain: 'globex.com' })).toBe(false)
    // Through the library's service, as the page calls it in the worker.
    expect(
      await libraryService(database).matchContactIds({ domain: 'initech.com', prefix: 'globex' }),
    ).toEqual(['c:101'])
  })

  it('count each facet with its own values left free, within the company', async () => {
    const database = freshDb()
    await upsertContacts(
      Array.from({ length: 30 }, (_, i) => person(i, i % 3 === 0 ? 'globex.com' : 'initech.com')),
      source('list', 'l'),
      database,
    )
    // Globex: people 0, 3, … 27; vp where i % 3 === 0 — all of them; deliverable where i is odd.
    const counts = await contactSearchFacetCounts(
      { domain: 'globex.com', facets: { emailStatus: ['deliverable'] } },
      database,
    )
    expect(counts.seniority).toEqual([{ value: 'vp', count: 5 }])
    expect(counts.emailStatus).toEqual([
      { value: 'catch_all', count: 5 },
      { value: 'deliverable', count: 5 },
    ])
  })

  it('come first from the newest key blocks, before a new window has read the rest', async () => {
    const name = 't-' + crypto.randomUUID()
    const count = 80 * contactBlockSize
    await upsertContacts(
      Array.from({ length: count }, (_, i) => person(i, i % 10 === 0 ? 'globex.com' : 'initech.com')),
      source('list', 'l'),
      new LeadkeeperDb(name),
    )
    const fresh = new LeadkeeperDb(name)
    const reads = vi.spyOn(fresh.peopleKeys, 'bulkGet')
    const first = await searchContacts({ domain: 'globex.com', limit: 5 }, fresh)
    expect(first.items.map((one) => one.id)).toEqual([7990, 7980, 7970, 7960, 7950].map((i) => `c:${i}`))
    expect(first.exact).toBe(false)
    expect(reads).toHaveBeenCalledTimes(1)
    const all = await matchContactIds({ domain: 'globex.com' }, fresh)
    expect(all).toHaveLength(800)
    expect(all.at(-1)).toBe('c:0')
  })

  it('follow a person who moves to another company', async () => {
    const database = freshDb()
    await upsertContacts(
      [person(1, 'initech.com'), person(2, 'initech.com')],
      source('list', 'l', 1),
      database,
    )
    await upsertContacts([person(1, 'globex.com')], source('list', 'l2', 2), database)
    expect(await matchContactIds({ domain: 'initech.com' }, database)).toEqual(['c:2'])
    expect(await matchContactIds({ domain: 'globex.com' }, database)).toEqual(['c:1'])
  })
})

describe('lists and rows', () => {
  async function enrichedList(database: LeadkeeperDb) {
    await seed(database, 'L', 14)
    await seed(database, 'M', 3)
    await applyEnrichmentResults(
      'L',
      [
        ...Array.from({ length: 8 }, (_, index) => found('L', index)),
        // Row 9 went with row 1: the same person, answered once.
        { ...found('L', 1), key: rowKey('L', 9), twinOf: rowKey('L', 1) },
      ],
      100,
      database,
    )
    await applyEnrichmentResults('M', [found('M', 1)], 200, database)
  }

  it('name the lists whose rows name a company, by any spelling, with how many rows', async () => {
    const database = freshDb()
    await enrichedList(database)
    const lists = await listsNamingCompany(['Co1', 'Co1', ' ', 'Nobody'], database)
    expect(lists.map(({ list, companies, rows }) => [list.id, companies, rows])).toEqual([
      ['L', ['Co1'], 2],
      ['M', ['Co1'], 1],
    ])
    expect(await listsNamingCompany([], database)).toEqual([])
  })

  it("find every row a person's answers are on, twins included", async () => {
    const database = freshDb()
    await enrichedList(database)
    expect(await personRows('c:1001', database)).toEqual([
      { listId: 'L', listName: 'List L', index: 1 },
      { listId: 'L', listName: 'List L', index: 9 },
      { listId: 'M', listName: 'List M', index: 1 },
    ])
    expect(await personRows('c:1002', database)).toEqual([{ listId: 'L', listName: 'List L', index: 2 }])
    expect(await personRows('c:nobody', database)).toEqual([])
  })

  it('find the rows of a person whose answer named no company, by its domain', async () => {
    const database = freshDb()
    await seed(database, 'N', 2)
    await applyEnrichmentResults(
      'N',
      [found('N', 1, { company_name: null, company_domain: 'Plain.example' })],
      100,
      database,
    )
    expect(await personRows('c:1001', database)).toEqual([{ listId: 'N', listName: 'List N', index: 1 }])
  })
})

describe('what changed', () => {
  it("counts a list's people whose latest answer moved them, and finds their rows of before", async () => {
    const database = freshDb()
    await seed(database, 'L', 4)
    await seed(database, 'M', 2)
    await applyEnrichmentResults('L', [found('L', 1), found('L', 2)], 100, database)
    await applyEnrichmentResults('M', [found('M', 0)], 100, database)
    expect(await changedInList('L', database)).toBe(0)
    // Row 1's person answered again on list M: now at another company.
    const moved = found('M', 1, {
      contact_id: 1001,
      company_name: 'Globex',
      company_domain: 'globex.com',
      contact_email_address: 'p1@globex.com',
    })
    await applyEnrichmentResults('M', [moved], 200, database)
    expect(await changedInList('L', database)).toBe(1)
    expect(await changedInList('M', database)).toBe(1)
    const person = await libraryService(database).contactById('c:1001')
    expect(person?.changes?.map(({ field, from, to }) => [field, from, to])).toEqual([
      ['company', 'Co1', 'Globex'],
      ['email', 'p1@d1.com', 'p1@globex.com'],
    ])
    // The row of before names the company they were at then: it still holds them.
    expect((await personRows('c:1001', database)).map(({ listId, index }) => [listId, index])).toEqual([
      ['L', 1],
      ['M', 1],
    ])
  })
})

describe('searches that found a record', () => {
  it('are its lead and company search sources, newest first, with their runs', async () => {
    const database = freshDb()
    const run = {
      id: 'run-1',
      kind: 'company',
      startedAt: 5,
      state: 'completed',
      found: 12,
      creditsConsumed: 0,
      request: { search: {}, label: 'SaaS in Berlin', chainId: 'run-1' },
    } as unknown as SearchRun
    await database.searchRuns.put(run)
    const found = await searchesOf(
      [source('list', 'L', 1), source('company_search', 'run-1', 5), source('lead_search', 'gone', 9)],
      database,
    )
    expect(found).toEqual([
      { source: source('lead_search', 'gone', 9) },
      { source: source('company_search', 'run-1', 5), run },
    ])
  })
})

describe("a company's profile", () => {
  it('keeps when each field was last fetched, and a part is as recent as its latest field', async () => {
    const database = freshDb()
    await upsertCompanies(
      [{ company_domain: 'globex.com', company_name: 'Globex', company_industry: 'software' }],
      source('company_search', 'r1', 1000),
      database,
    )
    await upsertCompanies(
      [
        {
          company_domain: 'globex.com',
          company_industry: '',
          company_last_funding_round_name: 'series_b',
          company_head_quarters_city: 'Springfield',
        },
      ],
      source('lookup', 'k1', 2000),
      database,
    )
    const company = (await companyByDomain(' GLOBEX.com', database))!
    expect(company.fieldsAt).toEqual({
      company_domain: 2000,
      company_name: 1000,
      company_industry: 1000,
      company_last_funding_round_name: 2000,
      company_head_quarters_city: 2000,
    })
    expect(partFetchedAt(company.fieldsAt!, 'facts')).toBe(1000)
    expect(partFetchedAt(company.fieldsAt!, 'funding')).toBe(2000)
    expect(partFetchedAt(company.fieldsAt!, 'where')).toBe(2000)
    expect(partFetchedAt(company.fieldsAt!, 'technologies')).toBe(0)
  })
})
