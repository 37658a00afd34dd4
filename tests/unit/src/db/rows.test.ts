import 'fake-indexeddb/auto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ResultRow } from '@shared/contract'
import { deleteList } from '@/db/lists'
import { LeadkeeperDb, rowKey } from '@/db/schema'
import type { StoredRow } from '@/db/records'
import { allContacts, contactById, countContacts, putContacts } from '../support/library'
import { allRows, rowAt } from '../support/rows'
import { asked, found, seed } from '../support/list-fixtures'
import {
  applyEnrichmentResults,
  applyKnownAnswers,
  applyResultBatches,
  countRows,
  eachRowPage,
  facetCounts,
  listSummary,
  pageRows,
} from '@/db/rows'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())

describe('applyKnownAnswers', () => {
  it('gives a row one kind from its twin and another from the library, with where each came from, in one write', async () => {
    const database = freshDb()
    await seed(database, 'L', 4)
    await applyEnrichmentResults('L', [{ ...found('L', 0), kinds: ['email'] }], 100, database)
    await putContacts(database, [
      {
        ...(await contactById('c:1000', database))!,
        id: 'c:lib',
        phone: '+44 20',
        data: { contact_phone_number: '+44 20', company_head_quarters_country: 'France' },
        answers: { phone: 50 },
      },
    ])
    const before = await facetCounts('L', database)
    await applyKnownAnswers(
      'L',
      [
        {
          index: 2,
          twins: [{ index: 0, kinds: ['email'] }],
          library: { contactId: 'c:lib', kinds: ['phone'] },
          outcome: 'copy',
        },
        { index: 3, twins: [], outcome: 'invalid' },
      ],
      database,
    )
    const row = (await rowAt(database, 'L', 2))!
    expect(row.result).toMatchObject({
      contact_email_address: 'p0@d0.com',
      contact_phone_number: '+44 20',
      // The library's spelling is put back in the enriched row's.
      company_headquarters_country: 'France',
    })
    expect(row.origins).toEqual({
      email: { via: 'twin', row: 0, at: 100 },
      phone: { via: 'library', contactId: 'c:lib', at: 50 },
    })
    expect(row).toMatchObject({ status: 'found', hasPhone: 1, emailStatus: 'deliverable' })
    expect(await rowAt(database, 'L', 3)).toMatchObject({ status: 'invalid' })
    // The counts moved with the rows: one more row found, one invalid, two fewer pending.
    const after = await facetCounts('L', database)
    const count = (counts: typeof before, value: string) =>
      counts.status.find((entry) => entry.value === value)?.count ?? 0
    expect(count(after, 'found') - count(before, 'found')).toBe(1)
    expect(count(after, 'invalid')).toBe(1)
    expect(count(before, 'pending') - count(after, 'pending')).toBe(2)
  })

  // A person the service found without the email asked for is "found" on the row it was charged for;
  // the same person given from the library to another list's row must read the same.
  it.each([
    ['found without an email', { enriched: true }, 'found'],
    ['not found', { enriched: false }, 'not_found'],
  ])('gives a row from the library the status the service gave the person: %s', async (_, said, status) => {
    const database = freshDb()
    await seed(database, 'A', 2)
    const answer = found('A', 0, { ...said, contact_email_address: null, contact_phone_number: null })
    await applyEnrichmentResults(
      'A',
      [{ ...answer, status: said.enriched ? 'found' : 'not_found', kinds: ['email'] }],
      100,
      database,
    )
    const charged = (await rowAt(database, 'A', 0))!
    expect(charged.status).toBe(status)
    await seed(database, 'B', 1)
    await applyKnownAnswers(
      'B',
      [
        {
          index: 0,
          twins: [],
          library: { contactId: charged.contactId!, kinds: ['email'] },
          outcome: 'copy',
        },
      ],
      database,
    )
    const given = (await rowAt(database, 'B', 0))!
    expect(given.origins?.email).toMatchObject({ via: 'library', contactId: charged.contactId })
    expect(given.status).toBe(charged.status)
  })
})

describe('applyEnrichmentResults', () => {
  it('joins by key whatever the order, sets facets, drops custom fields, keeps input of rows without data', async () => {
    const database = freshDb()
    await seed(database, 'L', 10)
    const batch: ResultRow[] = [
      found('L', 7),
      { key: rowKey('L', 2), status: 'not_found', note: 'nobody' },
      found('L', 0, { contact_email_address_status: 'catch_all', contact_location_country: 'Spain' }),
      { key: rowKey('other', 1), status: 'found', data: { contact_id: 9 } },
      { key: rowKey('L', 99), status: 'found', data: { contact_id: 10 } },
    ]
    expect(await applyEnrichmentResults('L', batch, 5000, database)).toEqual({ applied: 3 })
    const row7 = (await rowAt(database, 'L', 7))!
    expect(row7.values).toEqual(['First7', 'Last7', 'd0.com'])
    expect(row7.status).toBe('found')
    expect(row7.result?.['contact_email_address']).toBe('p7@d0.com')
    expect(row7.result?.['custom_fields']).toBeUndefined()
    expect(row7).toMatchObject({ emailStatus: 'deliverable', seniority: 'manager', country: 'France' })
    expect(row7).toMatchObject({ company: 'Co0', hasPhone: 1, contactId: 'c:1007' })
    const row0 = (await rowAt(database, 'L', 0))!
    expect(row0).toMatchObject({ emailStatus: 'catch_all', country: 'Spain' })
    expect(row0.hasPhone).toBeUndefined()
    const row2 = (await rowAt(database, 'L', 2))!
    expect(row2).toMatchObject({ status: 'not_found', values: ['First2', 'Last2', 'd2.com'] })
    expect(row2.result).toBeUndefined()
    expect(row2.emailStatus).toBeUndefined()
    expect((await rowAt(database, 'L', 1))!.status).toBe('pending')
    const counts = await facetCounts('L', database)
    expect(counts.status).toEqual([
      { value: 'pending', count: 7 },
      { value: 'found', count: 2 },
      { value: 'not_found', count: 1 },
    ])
    expect(counts.emailStatus).toEqual([
      { value: '', count: 8 },
      { value: 'catch_all', count: 1 },
      { value: 'deliverable', count: 1 },
    ])
    expect(counts.hasPhone).toEqual([
      { value: 0, count: 9 },
      { value: 1, count: 1 },
    ])
    const contact = (await contactById('c:1007', database))!
    expect(contact.sources).toEqual([{ kind: 'list', id: 'L', label: 'List L', at: 5000 }])
    expect((await database.companies.get('d0.com'))!.sources[0]!.label).toBe('List L')
  })

  it('keeps what an earlier run found when a later run reports the row as known', async () => {
    const database = freshDb()
    await seed(database, 'L', 3)
    await applyEnrichmentResults(
      'L',
      [found('L', 0), { key: rowKey('L', 1), status: 'not_found' }],
      10,
      database,
    )
    const again: ResultRow[] = [0, 1, 2].map((index) => ({ key: rowKey('L', index), status: 'known' }))
    expect(await applyEnrichmentResults('L', again, 20, database)).toEqual({ applied: 1 })
    expect((await rowAt(database, 'L', 0))!).toMatchObject({
      status: 'found',
      emailStatus: 'deliverable',
    })
    expect((await rowAt(database, 'L', 1))!.status).toBe('not_found')
    expect((await rowAt(database, 'L', 2))!.status).toBe('known')
  })

  it('is idempotent', async () => {
    const database = freshDb()
    await seed(database, 'L', 5)
    const batch = [found('L', 1), found('L', 3)]
    await applyEnrichmentResults('L', batch, 10, database)
    const snapshot = async () => ({
      rows: await allRows(database),
      contacts: await allContacts(database),
      companies: await database.companies.toArray(),
    })
    const once = await snapshot()
    await applyEnrichmentResults('L', batch, 10, database)
    expect(await snapshot()).toEqual(once)
  })

  it('answers each row at the time its batch was stored, the same whenever and however often it is applied', async () => {
    const database = freshDb()
    await seed(database, 'L', 5)
    const batches = [
      { rows: [asked('L', 1)], at: 1_000 },
      { rows: [asked('L', 3)], at: 2_000 },
    ]
    await applyResultBatches('L', batches, database)
    const once = await allRows(database)
    expect(once[1]!.origins?.email?.at).toBe(1_000)
    expect(once[3]!.origins?.email?.at).toBe(2_000)
    // Fetched again after a crash, in one page with a later batch: rows already stored stay as they were.
    await applyResultBatches('L', [...batches, { rows: [asked('L', 4)], at: 3_000 }], database)
    const again = await allRows(database)
    expect(again[1]).toEqual(once[1])
    expect(again[3]).toEqual(once[3])
    expect(again[4]!.origins?.email?.at).toBe(3_000)
  })

  it('answers a batch stored before batches kept their time as of now', async () => {
    const database = freshDb()
    await seed(database, 'L', 2)
    const before = Date.now()
    await applyResultBatches('L', [{ rows: [asked('L', 0)] }], database)
    const at = (await rowAt(database, 'L', 0))!.origins?.email?.at ?? 0
    expect(at).toBeGreaterThanOrEqual(before)
    expect(at).toBeLessThanOrEqual(Date.now())
  })

  it('keeps one library record per person found by two lists, with both lists as sources', async () => {
    const database = freshDb()
    await seed(database, 'A', 3)
    await seed(database, 'B', 3)
    await applyEnrichmentResults('A', [found('A', 1)], 10, database)
    await applyEnrichmentResults('B', [found('B', 1)], 20, database)
    expect(await countContacts(database)).toBe(1)
    const contact = (await contactById('c:1001', database))!
    expect(contact.sources.map((one) => one.id)).toEqual(['A', 'B'])
    expect((await rowAt(database, 'B', 1))!.contactId).toBe('c:1001')
  })
})

describe('paging, counting and facets', () => {
  let database: LeadkeeperDb
  // Seeded once: the queries below only read.
  beforeAll(async () => {
    database = freshDb()
    await seed(database, 'L', 3000)
    await seed(database, 'M', 50)
    const results = Array.from({ length: 3000 }, (_, index) =>
      index % 3 === 0
        ? ({ key: rowKey('L', index), status: 'not_found' } as ResultRow)
        : found('L', index, {
            contact_email_address_status: index % 3 === 1 ? 'deliverable' : 'catch_all',
            contact_location_country: index % 10 === 0 ? 'Spain' : 'France',
          }),
    )
    await applyEnrichmentResults('L', results, 1, database)
  })

  it('pages in import order by key range, and in reverse', async () => {
    const page = await pageRows('L', { offset: 2990, limit: 50 }, database)
    expect(page.map((row) => row.index)).toEqual(Array.from({ length: 10 }, (_, i) => 2990 + i))
    const last = await pageRows('L', { sort: { field: 'index', direction: 'desc' }, limit: 3 }, database)
    expect(last.map((row) => row.index)).toEqual([2999, 2998, 2997])
    expect(await countRows('L', {}, database)).toBe(3000)
    expect(await countRows('M', {}, database)).toBe(50)
  })

  it('filters by one or several facets, pages through them and counts them', async () => {
    const query = { filters: { emailStatus: ['deliverable'] } }
    expect(await countRows('L', query, database)).toBe(1000)
    const page = await pageRows('L', { ...query, offset: 10, limit: 5 }, database)
    expect(page.map((row) => row.index)).toEqual([31, 34, 37, 40, 43])
    const mixed = await pageRows(
      'L',
      { filters: { emailStatus: ['deliverable', 'catch_all'] }, limit: 4 },
      database,
    )
    expect(mixed.map((row) => row.index)).toEqual([1, 2, 4, 5])
    const both = { filters: { emailStatus: ['deliverable', 'catch_all'], country: ['Spain'] } }
    const spanish = await pageRows('L', { ...both, limit: 1000 }, database)
    expect(spanish.every((row) => row.country === 'Spain' && row.emailStatus !== '')).toBe(true)
    expect(await countRows('L', both, database)).toBe(spanish.length)
    expect(spanish.length).toBe(200)
    expect(await countRows('L', { filters: { status: ['not_found'] } }, database)).toBe(1000)
    expect(await countRows('L', { filters: { hasPhone: [1] } }, database)).toBe(1000)
  })

  it('sorts by a facet, ties in import order', async () => {
    const page = await pageRows(
      'L',
      { sort: { field: 'emailStatus', direction: 'asc' }, offset: 1000, limit: 3 },
      database,
    )
    expect(page.map((row) => [row.emailStatus, row.index])).toEqual([
      ['catch_all', 2],
      ['catch_all', 5],
      ['catch_all', 8],
    ])
  })

  it('counts every facet and summarises the list', async () => {
    const counts = await facetCounts('L', database)
    expect(counts.status).toEqual([
      { value: 'found', count: 2000 },
      { value: 'not_found', count: 1000 },
    ])
    expect(counts.emailStatus).toEqual([
      { value: '', count: 1000 },
      { value: 'catch_all', count: 1000 },
      { value: 'deliverable', count: 1000 },
    ])
    expect(counts.company).toHaveLength(8)
    const summary = await listSummary('L', database)
    expect(summary).toMatchObject({
      total: 3000,
      phoneFound: 1000,
      byStatus: { found: 2000, not_found: 1000 },
    })
  })

  it('streams a filtered list in import order', async () => {
    const seen: number[] = []
    const pages: number[] = []
    const onPage = (rows: StoredRow[]) => {
      pages.push(rows.length)
      seen.push(...rows.map((row) => row.index))
    }
    // Pages of at least 50 matching rows, a block's worth at a time: 66, 67 and 67 Spanish rows a block.
    await eachRowPage('L', { filters: { country: ['Spain'] } }, onPage, 50, database)
    expect(pages).toEqual([66, 67, 67])
    expect(seen.length).toBe(200)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
  })

  it('streams a whole list in import order, in pages of whole blocks', async () => {
    const seen: number[] = []
    const pages: number[] = []
    await eachRowPage(
      'L',
      {},
      (rows) => {
        pages.push(rows.length)
        seen.push(...rows.map((row) => row.index))
      },
      1_500,
      database,
    )
    expect(seen).toEqual(Array.from({ length: 3_000 }, (_, at) => at))
    expect(pages.slice(0, -1).every((size) => size >= 1_500)).toBe(true)
    expect(seen.length).toBe(pages.reduce((sum, size) => sum + size, 0))
  })

  it('counts a facet with hundreds of values', async () => {
    await seed(database, 'H', 600)
    const results = Array.from({ length: 600 }, (_, index) =>
      found('H', index, { company_name: `Firm ${index % 300}` }),
    )
    await applyEnrichmentResults('H', results, 1, database)
    const counts = await facetCounts('H', database)
    expect(counts.company).toHaveLength(300)
    expect(counts.company.every(({ count }) => count === 2)).toBe(true)
    expect(counts.company[0]).toEqual({ value: 'Firm 0', count: 2 })
  })

  it('filters on an unknown value and sorts unknown rows first, in import order', async () => {
    const unknown = { filters: { emailStatus: [''] } }
    expect(await countRows('L', unknown, database)).toBe(1000)
    const page = await pageRows('L', { ...unknown, limit: 3 }, database)
    expect(page.map((row) => row.index)).toEqual([0, 3, 6])
    expect(await countRows('L', { filters: { hasPhone: [0] } }, database)).toBe(2000)
    expect(await countRows('L', { filters: { emailStatus: ['', 'deliverable'] } }, database)).toBe(2000)
    const sorted = await pageRows(
      'L',
      { sort: { field: 'emailStatus', direction: 'asc' }, limit: 2 },
      database,
    )
    expect(sorted.map((row) => [row.emailStatus, row.index])).toEqual([
      [undefined, 0],
      [undefined, 3],
    ])
    const spanishOrUnknown = await pageRows(
      'L',
      { filters: { country: ['', 'Spain'] }, sort: { field: 'country', direction: 'desc' }, limit: 2 },
      database,
    )
    expect(spanishOrUnknown.map((row) => [row.country, row.index])).toEqual([
      ['Spain', 2990],
      ['Spain', 2980],
    ])
  })
})

describe('facet counts', () => {
  it('follow a row whose result changes, and go with their list', async () => {
    const database = freshDb()
    await seed(database, 'L', 4)
    await applyEnrichmentResults('L', [found('L', 0), found('L', 1)], 1, database)
    await applyEnrichmentResults(
      'L',
      [found('L', 1, { contact_location_country: 'Spain', contact_email_address_status: null })],
      2,
      database,
    )
    const counts = await facetCounts('L', database)
    expect(counts.country).toEqual([
      { value: '', count: 2 },
      { value: 'France', count: 1 },
      { value: 'Spain', count: 1 },
    ])
    expect(counts.emailStatus).toEqual([
      { value: '', count: 3 },
      { value: 'deliverable', count: 1 },
    ])
    expect((await rowAt(database, 'L', 1))!.emailStatus).toBeUndefined()
    expect(await countRows('L', { filters: { emailStatus: [''] } }, database)).toBe(3)
    expect(await database.companyCounts.count()).toBeGreaterThan(0)
    await deleteList('L', database)
    expect(await database.facetCounts.count()).toBe(0)
    expect(await database.companyCounts.count()).toBe(0)
  })
})
