import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { describe, expect, it } from 'vitest'
import {
  companyFacetCounts,
  contactFacetCounts,
  matchCompanyDomains,
  matchContactIds,
} from '@/db/library-query'
import { rowIndexes, facetCounts } from '@/db/rows'
import { LeadkeeperDb, onUpgradeProgress, type RowRecord, type UpgradeProgress } from '@/db/schema'
import { allRows } from '../support/rows'

/** The database as the version before row blocks declared it (versions 1 and 2 of schema.ts). */
class VersionTwoDb extends Dexie {
  constructor(name: string) {
    super(name)
    this.version(1).stores({
      lists: 'id, updatedAt',
      rows: '[listId+index], [listId+status], [listId+emailStatus], [listId+seniority], [listId+country], [listId+company], [listId+hasPhone]',
      contacts:
        'id, identity, nameLower, emailLower, domainLower, emailStatus, seniority, country, updatedAt',
      companies: 'domain, nameLower, industry, country, updatedAt',
      jobs: 'jobId, listId, searchRunId, state',
      mappings: 'signature',
      savedSearches: 'id, kind, updatedAt',
      searchRuns: 'id, savedSearchId, kind, startedAt',
      searchResults: '[runId+key], runId',
    })
    this.version(2).stores({ facetCounts: '[listId+facet+value]' })
  }
}

function oldRow(listId: string, index: number): RowRecord {
  const found = index % 3 === 0
  return {
    listId,
    index,
    values: [`F${index}`, `L${index}`, `d${index}.com`],
    issues: index === 7 ? ['duplicate'] : [],
    skip: index === 8,
    status: found ? 'found' : 'pending',
    ...(found
      ? {
          result: { contact_email_address: `f${index}@d.com` },
          emailStatus: 'deliverable',
          answers: { email: 5 },
        }
      : { emailStatus: '' }),
    seniority: '',
    country: '',
    company: '',
    hasPhone: 0,
  }
}

describe('upgrading a version-2 database', () => {
  it('moves every row of every list into blocks, indexes the library by words, keeps everything, and reports progress', async () => {
    const name = 'up-' + crypto.randomUUID()
    const old = new VersionTwoDb(name)
    const sizes = { A: 2_345, B: 3 }
    for (const [listId, size] of Object.entries(sizes)) {
      await old.table('lists').put({ id: listId, name: listId, rowCount: size, state: 'done', updatedAt: 1 })
      await old.table('rows').bulkPut(Array.from({ length: size }, (_, index) => oldRow(listId, index)))
      await old.table('facetCounts').bulkPut([
        { listId, facet: 'status', value: 'found', count: Math.ceil(size / 3) },
        { listId, facet: 'status', value: 'pending', count: size - Math.ceil(size / 3) },
        { listId, facet: 'emailStatus', value: 'deliverable', count: Math.ceil(size / 3) },
      ])
    }
    await old.table('contacts').put({
      id: 'n:zoe brown@c.com',
      fullName: 'Zoë Brown',
      email: 'zoe@c.com',
      companyDomain: 'c.com',
      identity: 'zoe brown@c.com',
      nameLower: 'zoë brown',
      emailLower: 'zoe@c.com',
      domainLower: 'c.com',
      emailStatus: 'deliverable',
      seniority: '',
      country: 'France',
      data: { contact_id: 42 },
    })
    await old
      .table('companies')
      .put({ domain: 'c.com', name: 'Cé Corp', nameLower: 'cé corp', industry: 'Retail', country: '' })
    old.close()

    const seen: UpgradeProgress[] = []
    const stop = onUpgradeProgress((progress) => seen.push({ ...progress }))
    const database = new LeadkeeperDb(name)
    await database.open()
    stop()

    expect(database.verno).toBe(5)
    expect(database.tables.map((table) => table.name)).not.toContain('rows')
    const rowsA = await allRows(database, 'A')
    expect(rowsA).toHaveLength(2_345)
    expect(rowsA[2_344]).toEqual(
      // Unknown facets held as '' and 0 are dropped: absent means unknown.
      (({ seniority: _s, country: _c, company: _co, hasPhone: _h, emailStatus, ...rest }) => ({
        ...rest,
        ...(emailStatus ? { emailStatus } : {}),
      }))(oldRow('A', 2_344)),
    )
    expect(rowsA[7]!.issues).toEqual(['duplicate'])
    expect(rowsA[8]!.skip).toBe(true)
    expect(rowsA[9]).toMatchObject({
      status: 'found',
      answers: { email: 5 },
      result: { contact_email_address: 'f9@d.com' },
    })
    expect((await allRows(database, 'B')).map((row) => row.index)).toEqual([0, 1, 2])
    expect((await database.blockRevs.get('A'))?.revs).toEqual([1, 1, 1])
    expect(await rowIndexes('A', { filters: { emailStatus: ['deliverable'] } }, database)).toHaveLength(782)
    expect((await facetCounts('A', database)).status).toEqual([
      { value: 'pending', count: 1_563 },
      { value: 'found', count: 782 },
    ])
    // The library gains its search words and kept counts.
    expect(await database.contacts.get('n:zoe brown@c.com')).toMatchObject({
      identity: 'zoe brown@c.com',
      words: ['zoe', 'brown', 'zoe@c.com', 'c.com', 'c:42'],
    })
    expect(await matchContactIds({ prefix: 'brown' }, database)).toEqual(['n:zoe brown@c.com'])
    expect(await matchCompanyDomains({ prefix: 'ce' }, database)).toEqual(['c.com'])
    expect((await contactFacetCounts(database)).country).toEqual([{ value: 'France', count: 1 }])
    expect((await companyFacetCounts(database)).industry).toEqual([{ value: 'Retail', count: 1 }])
    expect(seen[0]).toEqual({ done: 0, total: 2_348 })
    expect(seen.at(-1)).toEqual({ done: 2_348, total: 2_348 })
    expect(seen.length).toBeGreaterThan(2)
    database.close()
  })
})
