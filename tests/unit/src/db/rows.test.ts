import 'fake-indexeddb/auto'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ResultRow } from '@shared/contract'
import { LeadkeeperDb, rowKey, type ListRecord, type RowRecord } from '@/db/schema'
import { applyEnrichmentResults, countRows, eachRowPage, facetCounts, listSummary, pageRows } from '@/db/rows'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())

function list(id: string, rowCount: number): ListRecord {
  return {
    id,
    name: `List ${id}`,
    createdAt: 1,
    updatedAt: 1,
    source: { fileName: 'a.csv', size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
    columns: ['First', 'Last', 'Domain'],
    mapping: { first_name: 0, last_name: 1, company_domain: 2 },
    rowCount,
    state: 'running',
    jobIds: [],
    creditsSpent: 0,
  }
}

function inputRow(listId: string, index: number): RowRecord {
  return {
    listId,
    index,
    values: [`First${index}`, `Last${index}`, `d${index % 7}.com`],
    issues: [],
    skip: false,
    status: 'pending',
    emailStatus: '',
    seniority: '',
    country: '',
    company: '',
    hasPhone: 0,
  }
}

async function seed(database: LeadkeeperDb, listId: string, count: number) {
  await database.lists.put(list(listId, count))
  await database.rows.bulkPut(Array.from({ length: count }, (_, index) => inputRow(listId, index)))
}

function found(listId: string, index: number, extra: Record<string, unknown> = {}): ResultRow {
  return {
    key: rowKey(listId, index),
    status: 'found',
    data: {
      enriched: true,
      contact_id: 1000 + index,
      contact_first_name: `First${index}`,
      contact_last_name: `Last${index}`,
      contact_email_address: `p${index}@d${index % 7}.com`,
      contact_email_address_status: 'Deliverable',
      contact_seniority: 'manager',
      contact_location_country: 'France',
      contact_phone_number: index % 2 ? '+33 1' : null,
      company_name: `Co${index % 7}`,
      company_domain: `d${index % 7}.com`,
      custom_fields: [{ name: 'key', value: rowKey(listId, index), position: 0 }],
      ...extra,
    },
  }
}

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
    const row7 = (await database.rows.get(['L', 7]))!
    expect(row7.values).toEqual(['First7', 'Last7', 'd0.com'])
    expect(row7.status).toBe('found')
    expect(row7.result?.['contact_email_address']).toBe('p7@d0.com')
    expect(row7.result?.['custom_fields']).toBeUndefined()
    expect(row7).toMatchObject({ emailStatus: 'deliverable', seniority: 'manager', country: 'France' })
    expect(row7).toMatchObject({ company: 'Co0', hasPhone: 1, contactId: 'c:1007' })
    expect((await database.rows.get(['L', 0]))!).toMatchObject({
      emailStatus: 'catch_all',
      country: 'Spain',
      hasPhone: 0,
    })
    const row2 = (await database.rows.get(['L', 2]))!
    expect(row2).toMatchObject({ status: 'not_found', values: ['First2', 'Last2', 'd2.com'] })
    expect(row2.result).toBeUndefined()
    expect((await database.rows.get(['L', 1]))!.status).toBe('pending')
    const contact = (await database.contacts.get('c:1007'))!
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
    expect((await database.rows.get(['L', 0]))!).toMatchObject({
      status: 'found',
      emailStatus: 'deliverable',
    })
    expect((await database.rows.get(['L', 1]))!.status).toBe('not_found')
    expect((await database.rows.get(['L', 2]))!.status).toBe('known')
  })

  it('is idempotent', async () => {
    const database = freshDb()
    await seed(database, 'L', 5)
    const batch = [found('L', 1), found('L', 3)]
    await applyEnrichmentResults('L', batch, 10, database)
    const snapshot = async () => ({
      rows: await database.rows.toArray(),
      contacts: await database.contacts.toArray(),
      companies: await database.companies.toArray(),
    })
    const once = await snapshot()
    await applyEnrichmentResults('L', batch, 10, database)
    expect(await snapshot()).toEqual(once)
  })

  it('keeps one library record per person found by two lists, with both lists as sources', async () => {
    const database = freshDb()
    await seed(database, 'A', 3)
    await seed(database, 'B', 3)
    await applyEnrichmentResults('A', [found('A', 1)], 10, database)
    await applyEnrichmentResults('B', [found('B', 1)], 20, database)
    expect(await database.contacts.count()).toBe(1)
    const contact = (await database.contacts.get('c:1001'))!
    expect(contact.sources.map((one) => one.id)).toEqual(['A', 'B'])
    expect((await database.rows.get(['B', 1]))!.contactId).toBe('c:1001')
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
    const onPage = (rows: RowRecord[]) => {
      pages.push(rows.length)
      seen.push(...rows.map((row) => row.index))
    }
    await eachRowPage('L', { filters: { country: ['Spain'] } }, onPage, 1000, database)
    expect(pages).toEqual([66, 67, 67])
    expect(seen.length).toBe(200)
    expect(seen).toEqual([...seen].sort((a, b) => a - b))
  })

  it('counts a facet with hundreds of values in one pass over its index', async () => {
    await database.rows.bulkPut(
      Array.from({ length: 600 }, (_, index) => ({
        ...inputRow('H', index),
        company: `Firm ${index % 300}`,
      })),
    )
    const counts = await facetCounts('H', database)
    expect(counts.company).toHaveLength(300)
    expect(counts.company.every(({ count }) => count === 2)).toBe(true)
    expect(counts.company[0]).toEqual({ value: 'Firm 0', count: 2 })
  })
})
