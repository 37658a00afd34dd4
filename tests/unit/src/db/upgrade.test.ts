import 'fake-indexeddb/auto'
import Dexie from 'dexie'
import { describe, expect, it } from 'vitest'
import {
  companyFacetCounts,
  contactFacetCounts,
  matchCompanyDomains,
  matchContactIds,
} from '@/db/library-query'
import { contactFromPayload, upsertContacts } from '@/db/library-ingest'
import { contactWords } from '@/db/library-shape'
import { listOperations } from '@/db/lists'
import { rowIndexes, facetCounts } from '@/db/rows'
import { facetRecordsOf, legacyFacetBlockOf } from '@/db/block-shape'
import { contactBlockSize, keyBlockOf, legacyContactBlockSize } from '@/db/contact-index'
import {
  LeadkeeperDb,
  onUpgradeProgress,
  type ContactBlock,
  type ContactRecord,
  type RowRecord,
  type UpgradeProgress,
} from '@/db/schema'
import { openProblem } from '@/ui/open-problem'
import { allContacts, contactById, countContacts } from '../support/library'
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

/**
 * Opens the database as the app does on a disk that fills while the upgrade writes: the browser
 * refuses every put into `table` after its first `allowed`. What the opening failed with.
 */
async function openWithFullDisk(name: string, table: string, allowed: number): Promise<unknown> {
  const stores = globalThis.IDBObjectStore.prototype
  const put = stores.put
  let written = 0
  stores.put = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (this.name === table && ++written > allowed)
      throw new DOMException('The disk is full.', 'QuotaExceededError')
    return put.apply(this, args)
  }
  try {
    await new LeadkeeperDb(name).open()
    return null
  } catch (error) {
    return error
  } finally {
    stores.put = put
  }
}

/** Opens a database written by an older version, as the app does, and what the upgrade reported. */
async function openUpgrading(name: string): Promise<{ database: LeadkeeperDb; seen: UpgradeProgress[] }> {
  const seen: UpgradeProgress[] = []
  const stop = onUpgradeProgress((progress) => seen.push({ ...progress }))
  const database = new LeadkeeperDb(name)
  try {
    await database.open()
  } finally {
    stop()
  }
  return { database, seen }
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

    const { database, seen } = await openUpgrading(name)

    expect(database.verno).toBe(16)
    expect(database.tables.map((table) => table.name)).not.toContain('rows')
    expect(database.tables.map((table) => table.name)).not.toContain('contacts')
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
    expect(await contactById('n:zoe brown@c.com', database)).toMatchObject({
      identity: 'zoe brown@c.com',
      words: ['zoe', 'brown', 'zoe@c.com', 'c.com', 'c:42'],
    })
    expect(await matchContactIds({ prefix: 'brown' }, database)).toEqual(['n:zoe brown@c.com'])
    expect(await matchCompanyDomains({ prefix: 'ce' }, database)).toEqual(['c.com'])
    expect((await contactFacetCounts(database)).country).toEqual([{ value: 'France', count: 1 }])
    expect((await companyFacetCounts(database)).industry).toEqual([{ value: 'Retail', count: 1 }])
    const rows = seen.filter((progress) => progress.what === 'rows')
    expect(rows[0]).toEqual({ what: 'rows', done: 0, total: 2_348 })
    expect(rows.at(-1)).toEqual({ what: 'rows', done: 2_348, total: 2_348 })
    expect(rows.length).toBeGreaterThan(2)
    database.close()
  })
})

/** The database as the version before people in blocks declared it (versions 1 to 5 of schema.ts). */
class VersionFiveDb extends VersionTwoDb {
  constructor(name: string) {
    super(name)
    this.version(3).stores({ blocks: '[listId+block]', blockFacets: '[listId+block]', blockRevs: 'listId' })
    this.version(4).stores({ rows: null })
    this.version(5).stores({
      contacts: 'id, identity, nameLower, *words, emailStatus, seniority, country',
      companies: 'domain, nameLower, *words, industry, country',
      libraryCounts: '[table+facet+value]',
    })
  }
}

/** Person i as the library stored them: a contact id, an email or a name, two first names, two countries. */
function storedPerson(i: number, firstSeenAt: number) {
  const contact = contactFromPayload({
    contact_id: i % 3 === 0 ? `id${i}` : undefined,
    contact_first_name: i % 2 ? 'Zoë' : 'Ada',
    contact_last_name: `Brown${i}`,
    contact_email_address: i % 3 === 1 ? `p${i}@c.com` : '',
    contact_location_country: i % 5 ? 'France' : 'Spain',
    company_domain: 'c.com',
  })!
  return { ...contact, sources: [], firstSeenAt, updatedAt: 1, answers: { email: i } }
}

/** The library's kept counts of its people by country, as every version since 5 stores them. */
const countryCounts = (france: number, spain: number) => [
  { table: 'contacts', facet: 'country', value: 'France', count: france },
  { table: 'contacts', facet: 'country', value: 'Spain', count: spain },
]

describe('upgrading a version-5 library', () => {
  it('moves every person into blocks in the order first stored, found again by every key, with progress', async () => {
    const name = 'up5-' + crypto.randomUUID()
    const old = new VersionFiveDb(name)
    const count = 450
    // Stored in an order of their own: person i was first seen at time (i * 7) % count.
    const people = Array.from({ length: count }, (_, i) => storedPerson(i, (i * 7) % count))
    await old.table('contacts').bulkPut(people)
    await old.table('libraryCounts').bulkPut(countryCounts(360, 90))
    old.close()

    const { database, seen } = await openUpgrading(name)

    expect(database.verno).toBe(16)
    expect(await countContacts(database)).toBe(count)
    // Version 6 put them in 9 blocks of 50; version 10 regroups them in blocks of 100.
    expect(await database.peopleBlocks.count()).toBe(5)
    expect(await database.peopleKeys.count()).toBe(5)
    const byFirstSeen = [...people].sort((a, b) => a.firstSeenAt - b.firstSeenAt)
    // Newest first: the last first seen leads.
    expect((await allContacts(database)).map((contact) => contact.id)).toEqual(
      byFirstSeen.map((contact) => contact.id).reverse(),
    )
    for (const person of [people[0]!, people[1]!, people[2]!, people[449]!]) {
      expect(await contactById(person.id, database)).toEqual(person)
    }
    expect(await matchContactIds({ prefix: 'zoe brown1' }, database)).toHaveLength(56)
    expect(await matchContactIds({ prefix: 'brown7', facets: { country: ['Spain'] } }, database)).toEqual([
      'c:id75',
      'e:p70@c.com',
    ])
    expect((await contactFacetCounts(database)).country).toEqual([
      { value: 'France', count: 360 },
      { value: 'Spain', count: 90 },
    ])
    // A later payload finds each person under the key they were stored by: no one is added.
    await upsertContacts(
      [
        { contact_id: 'id3', contact_full_name: 'Ada Brown3' },
        { contact_email_address: 'p4@c.com' },
        { contact_first_name: 'Zoë', contact_last_name: 'Brown5', company_domain: 'c.com' },
      ],
      { kind: 'lookup', id: 'l', label: 'Lookup', at: 2 },
      database,
    )
    expect(await countContacts(database)).toBe(count)
    const known = await listOperations(database).libraryKnowledge(['zoë brown5@c.com', 'ada brown8@c.com'])
    expect(known.get('zoë brown5@c.com')).toEqual({ contactId: people[5]!.id, answers: { email: 5 } })
    expect(known.get('ada brown8@c.com')).toEqual({ contactId: people[8]!.id, answers: { email: 8 } })

    const moved = seen.filter((progress) => progress.what === 'contacts')
    expect(moved[0]).toEqual({ what: 'contacts', done: 0, total: count })
    expect(moved.at(-1)).toEqual({ what: 'contacts', done: count, total: count })
    database.close()
  })
})

/** The database as the version before the company column stood apart declared it (versions 1 to 7). */
class VersionSevenDb extends VersionFiveDb {
  constructor(name: string) {
    super(name)
    this.version(6).stores({ contactBlocks: 'block', contactKeys: 'block', contactRevs: 'id' })
    this.version(7).stores({ contacts: null })
  }
}

describe('upgrading a version-7 database', () => {
  it("moves each block's company column into a record of its own; every filter finds the same rows", async () => {
    const name = 'up7-' + crypto.randomUUID()
    // Written by the app as it stood: blocks with every facet in one record.
    const count = 2_500
    const rows: RowRecord[] = Array.from({ length: count }, (_, index) => ({
      listId: 'A',
      index,
      values: [`F${index}`],
      issues: [],
      skip: false,
      status: index % 2 ? 'found' : 'pending',
      ...(index % 2 ? { emailStatus: 'deliverable', company: `Co ${index % 7}` } : {}),
    }))
    const blocks = [0, 1, 2].map((block) => ({
      listId: 'A',
      block,
      rows: rows.slice(block * 1_000, (block + 1) * 1_000).map(({ listId: _l, ...row }) => row),
    }))
    const old = new VersionSevenDb(name)
    await old.table('lists').put({ id: 'A', name: 'A', rowCount: count, state: 'done', updatedAt: 1 })
    await old.table('blocks').bulkPut(blocks)
    await old.table('blockFacets').bulkPut(blocks.map(legacyFacetBlockOf))
    await old.table('blockRevs').put({ listId: 'A', revs: [1, 1, 1] })
    old.close()

    const { database, seen } = await openUpgrading(name)

    expect(database.verno).toBe(16)
    const facets = await database.listFacets.toArray()
    expect(facets).toHaveLength(3)
    for (const record of facets) expect(Object.keys(record.columns)).not.toContain('company')
    const companies = await database.listCompanies.toArray()
    expect(companies.map((record) => [record.block, record.size])).toEqual([
      [0, 1_000],
      [1, 1_000],
      [2, 500],
    ])
    const expected = (test: (row: RowRecord) => boolean) => rows.filter(test).map((row) => row.index)
    expect(await rowIndexes('A', { filters: { company: ['Co 3'] } }, database)).toEqual(
      expected((row) => row.company === 'Co 3'),
    )
    expect(
      await rowIndexes(
        'A',
        { filters: { emailStatus: ['deliverable'], company: ['Co 0', 'Co 6'] } },
        database,
      ),
    ).toEqual(expected((row) => row.company === 'Co 0' || row.company === 'Co 6'))
    expect(await rowIndexes('A', { filters: { status: ['pending'] } }, database)).toEqual(
      expected((row) => row.status === 'pending'),
    )
    expect(await allRows(database, 'A')).toEqual(rows)
    const moved = seen.filter((progress) => progress.what === 'filters')
    expect(moved[0]).toEqual({ what: 'filters', done: 0, total: 3_000 })
    expect(moved.at(-1)).toEqual({ what: 'filters', done: 3_000, total: 3_000 })
    database.close()
  })
})

/** The database as the version before people in blocks of 100 declared it (versions 1 to 9). */
class VersionNineDb extends VersionSevenDb {
  constructor(name: string) {
    super(name)
    this.version(8).stores({ blockCompanies: '[listId+block]' })
    this.version(9).stores({ listColumns: '[listId+part]' })
  }
}

/** Blocks of people with their key blocks, as versions 6 to 9 wrote them. */
async function putVersionNineBlocks(old: VersionNineDb, blocks: ContactBlock[]) {
  await old.table('contactBlocks').bulkPut(blocks)
  await old.table('contactKeys').bulkPut(blocks.map(({ block, contacts }) => keyBlockOf(block, contacts)))
}

describe('upgrading a version-9 library', () => {
  it('regroups the people from blocks of 50 into blocks of 100, each at their slot, found again by every key, with progress', async () => {
    expect(contactBlockSize).toBe(2 * legacyContactBlockSize)
    const name = 'up9-' + crypto.randomUUID()
    // Past one page of the upgrade's reads (10,000 people), with a last block half full.
    const count = 10_275
    const people = Array.from({ length: count }, (_, i) => storedPerson(i, i))
    // As versions 6 to 9 wrote them: person i at slot i, 50 a block, each block with its keys.
    const blocks = Array.from({ length: Math.ceil(count / legacyContactBlockSize) }, (_, block) => ({
      block,
      contacts: people.slice(block * legacyContactBlockSize, (block + 1) * legacyContactBlockSize),
    }))
    const old = new VersionNineDb(name)
    await putVersionNineBlocks(old, blocks)
    await old
      .table('contactRevs')
      .put({ id: 'contacts', epoch: 'old', size: count, revs: blocks.map((_, at) => 1 + (at % 3)) })
    await old.table('libraryCounts').bulkPut(countryCounts(8_220, 2_055))
    old.close()

    const { database, seen } = await openUpgrading(name)

    expect(database.verno).toBe(16)
    const stored = await database.peopleBlocks.toArray()
    expect(stored.map((block) => [block.block, block.contacts.length])).toEqual(
      Array.from({ length: 103 }, (_, block) => [block, block < 102 ? 100 : 75]),
    )
    expect(stored.flatMap((block) => block.contacts)).toEqual(people)
    expect(await database.peopleKeys.count()).toBe(103)
    const revisions = await database.contactRevs.get('contacts')
    expect(revisions?.size).toBe(count)
    expect(revisions?.revs).toEqual(Array.from({ length: 103 }, () => 1))
    expect(revisions?.epoch).not.toBe('old')
    expect(await countContacts(database)).toBe(count)
    for (const person of [people[0]!, people[49]!, people[50]!, people[101]!, people[10_274]!]) {
      expect(await contactById(person.id, database)).toEqual(person)
    }
    expect(await matchContactIds({ prefix: 'zoe brown1027' }, database)).toHaveLength(3)
    const spanishBrown10 = people
      .filter((person, i) => person.country === 'Spain' && String(i).startsWith('10'))
      .map((person) => person.id)
    expect(spanishBrown10).toHaveLength(78)
    expect(
      (await matchContactIds({ prefix: 'brown10', facets: { country: ['Spain'] } }, database)).sort(),
    ).toEqual(spanishBrown10.sort())
    // A later payload finds each person under the key they were stored by; a new one takes the next slot.
    await upsertContacts(
      [
        { contact_id: 'id3', contact_full_name: 'Ada Brown3' },
        { contact_email_address: 'p10003@c.com' },
        { contact_first_name: 'Zoë', contact_last_name: 'Brown5', company_domain: 'c.com' },
        { contact_first_name: 'Grace', contact_last_name: 'Hopper', company_domain: 'navy.mil' },
      ],
      { kind: 'lookup', id: 'l', label: 'Lookup', at: 2 },
      database,
    )
    expect(await countContacts(database)).toBe(count + 1)
    expect((await database.peopleBlocks.get(102))?.contacts[75]?.fullName).toBe('Grace Hopper')
    const known = await listOperations(database).libraryKnowledge(['zoë brown5@c.com', 'ada brown8@c.com'])
    expect(known.get('zoë brown5@c.com')).toEqual({ contactId: people[5]!.id, answers: { email: 5 } })
    expect(known.get('ada brown8@c.com')).toEqual({ contactId: people[8]!.id, answers: { email: 8 } })

    const moved = seen.filter((progress) => progress.what === 'contacts')
    expect(moved[0]).toEqual({ what: 'contacts', done: 0, total: count })
    expect(moved.map((progress) => progress.done)).toContain(10_000)
    expect(moved.at(-1)).toEqual({ what: 'contacts', done: count, total: count })
    database.close()
  })
  it('keeps each person at their slot when a block is missing, and counts them without a revisions record', async () => {
    const name = 'up9-gap-' + crypto.randomUUID()
    // Blocks 0, 2 and 3 of 50 (slots 0-49 and 100-174): none the app wrote, a damaged library.
    const people = Array.from({ length: 175 }, (_, i) => storedPerson(i, i))
    const blocks = [0, 2, 3].map((block) => ({
      block,
      contacts: people.slice(block * legacyContactBlockSize, (block + 1) * legacyContactBlockSize),
    }))
    const old = new VersionNineDb(name)
    await putVersionNineBlocks(old, blocks)
    old.close()

    const { database } = await openUpgrading(name)

    const stored = await database.peopleBlocks.toArray()
    expect(stored.map((block) => [block.block, block.contacts.length])).toEqual([
      [0, 100],
      [1, 75],
    ])
    expect(stored[0]!.contacts.slice(0, 50)).toEqual(people.slice(0, 50))
    expect(stored[0]!.contacts.slice(50)).toEqual(Array.from({ length: 50 }, () => undefined))
    expect(stored[1]!.contacts).toEqual(people.slice(100))
    expect((await database.contactRevs.get('contacts'))?.size).toBe(175)
    // A search by a word reads past the empty slots; the people of the missing block are not found.
    expect(await matchContactIds({ prefix: 'brown1' }, database)).toEqual(
      people
        .filter((person, i) => String(i).startsWith('1') && (i < 50 || i >= 100))
        .map((person) => person.id)
        .reverse(),
    )
    expect(await contactById(people[120]!.id, database)).toEqual(people[120])
    database.close()
  })
})

/**
 * A database as the app wrote it before blocks were keyed out of line (versions 1 to 10): a list of
 * 2,345 rows in three blocks with their facet and company records, another of 3 rows, and 250 people
 * in blocks of 100 with their keys.
 */
async function versionTenDatabase() {
  const name = 'up10-' + crypto.randomUUID()
  const sizes = { A: 2_345, B: 3 }
  const rows = Object.entries(sizes).flatMap(([listId, size]) =>
    Array.from({ length: size }, (_, index) => ({ ...oldRow(listId, index), listId })),
  )
  const blocks = Object.entries(sizes).flatMap(([listId, size]) =>
    Array.from({ length: Math.ceil(size / 1_000) }, (_, block) => ({
      listId,
      block,
      rows: rows
        .filter((row) => row.listId === listId)
        .slice(block * 1_000, (block + 1) * 1_000)
        .map(({ listId: _l, ...row }) => row),
    })),
  )
  const facets = blocks.map(facetRecordsOf)
  const people = Array.from({ length: 250 }, (_, i) => storedPerson(i, i))
  const peopleBlocks: ContactBlock[] = [0, 1, 2].map((block) => ({
    block,
    contacts: people.slice(block * contactBlockSize, (block + 1) * contactBlockSize),
  }))
  // The database as the version before blocks keyed out of line declared it (versions 1 to 10).
  const old = new VersionNineDb(name)
  old.version(10).stores({})
  for (const [listId, size] of Object.entries(sizes)) {
    await old.table('lists').put({ id: listId, name: listId, rowCount: size, state: 'ready', updatedAt: 1 })
    await old.table('blockRevs').put({ listId, revs: blocks.filter((b) => b.listId === listId).map(() => 1) })
  }
  await old.table('blocks').bulkPut(blocks)
  await old.table('blockFacets').bulkPut(facets.map((record) => record.facets))
  await old.table('blockCompanies').bulkPut(facets.map((record) => record.company))
  await putVersionNineBlocks(old, peopleBlocks)
  await old.table('contactRevs').put({ id: 'contacts', epoch: 'kept', size: 250, revs: [1, 1, 1] })
  old.close()
  return { name, rows, blocks, facets, people, peopleBlocks }
}

describe('upgrading a version-10 database', () => {
  it('moves every block, its columns and the library’s people to tables keyed apart, the same records under the same keys', async () => {
    const { name, rows, blocks, facets, people, peopleBlocks } = await versionTenDatabase()
    const { database, seen } = await openUpgrading(name)

    expect(database.verno).toBe(16)
    const tables = database.backendDB().objectStoreNames
    for (const gone of ['blocks', 'blockFacets', 'blockCompanies', 'contactBlocks', 'contactKeys']) {
      expect(tables.contains(gone)).toBe(false)
    }
    const listKeys = blocks.map((block) => [block.listId, block.block])
    expect(await database.listBlocks.toCollection().primaryKeys()).toEqual(listKeys)
    expect(await database.listBlocks.toArray()).toEqual(blocks)
    expect(await database.listFacets.toCollection().primaryKeys()).toEqual(listKeys)
    expect(await database.listFacets.toArray()).toEqual(facets.map((record) => record.facets))
    expect(await database.listCompanies.toArray()).toEqual(facets.map((record) => record.company))
    expect(await database.peopleBlocks.toCollection().primaryKeys()).toEqual([0, 1, 2])
    expect(await database.peopleBlocks.toArray()).toEqual(peopleBlocks)
    expect(await database.peopleKeys.toArray()).toEqual(
      peopleBlocks.map(({ block, contacts }) => keyBlockOf(block, contacts)),
    )
    // Read and written as the app does, through the new tables.
    expect(await allRows(database, 'A')).toEqual(rows.filter((row) => row.listId === 'A'))
    await listOperations(database).appendRows('B', 3, [['new']])
    expect((await allRows(database, 'B')).map((row) => row.values)).toEqual([
      ...rows.filter((row) => row.listId === 'B').map((row) => row.values),
      ['new'],
    ])
    expect((await contactById(people[249]!.id, database))?.fullName).toBe(people[249]!.fullName)
    expect((await database.contactRevs.get('contacts'))?.epoch).toBe('kept')

    const moved = (what: UpgradeProgress['what']) => seen.filter((progress) => progress.what === what)
    expect(moved('rows')[0]).toEqual({ what: 'rows', done: 0, total: 2_348 })
    expect(moved('rows').at(-1)).toEqual({ what: 'rows', done: 2_348, total: 2_348 })
    expect(moved('contacts')[0]).toEqual({ what: 'contacts', done: 0, total: 250 })
    expect(moved('contacts').at(-1)).toEqual({ what: 'contacts', done: 250, total: 250 })
    database.close()
  })
  it('a disk that fills during the upgrade: the opening fails as a disk problem, every record stays as it was, and a later opening finishes', async () => {
    const { name, rows, blocks } = await versionTenDatabase()
    // The disk fills after the first block is written again: the browser refuses the next write.
    const failure = await openWithFullDisk(name, 'listBlocks', 1)
    expect(openProblem(failure).kind).toBe('disk')
    expect(openProblem(failure, { usage: 5_000_000, quota: 6_000_000 }).message).toContain(
      'Your data takes 4.8 MB',
    )
    // Nothing of the upgrade kept: version 10's tables and records, as they were.
    const before = new VersionNineDb(name)
    before.version(10).stores({})
    await before.open()
    expect(before.verno).toBe(10)
    expect(await before.table('blocks').toArray()).toEqual(blocks)
    before.close()
    // Room again: the next opening runs the upgrade from its start, and every row is there.
    const { database } = await openUpgrading(name)
    expect(database.verno).toBe(16)
    expect(await allRows(database, 'A')).toEqual(rows.filter((row) => row.listId === 'A'))
    database.close()
  })
})

/** The database as versions 11 and 12 declared it: blocks keyed apart, the old tables gone. */
class VersionTwelveDb extends VersionNineDb {
  constructor(name: string) {
    super(name)
    this.version(10).stores({})
    this.version(11).stores({
      listBlocks: '',
      listFacets: '',
      listCompanies: '',
      peopleBlocks: '',
      peopleKeys: '',
    })
    this.version(12).stores({
      blocks: null,
      blockFacets: null,
      blockCompanies: null,
      contactBlocks: null,
      contactKeys: null,
    })
  }
}

/** Words as version 12 folded them: accents removed, but "ø", "ß", "ł"… kept as they are. */
const versionTwelveFold = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim()

/** A version-12 library of 250 people, two of them with letters version 12 did not fold, and two companies. */
async function versionTwelveLibrary() {
  const name = 'up12-' + crypto.randomUUID()
  const people = Array.from({ length: 250 }, (_, i) => storedPerson(i, i))
  const named = (at: number, fullName: string) => {
    const words = [...fullName.split(' '), people[at]!.email, 'c.com'].map(versionTwelveFold).filter(Boolean)
    people[at] = { ...people[at]!, fullName, nameLower: fullName.toLowerCase(), words }
  }
  named(120, 'Søren Østergaard')
  named(121, 'Łukasz Strauß')
  const blocks: ContactBlock[] = [0, 1, 2].map((block) => ({
    block,
    contacts: people.slice(block * contactBlockSize, (block + 1) * contactBlockSize),
  }))
  const old = new VersionTwelveDb(name)
  await old.table('peopleBlocks').bulkPut(blocks, [0, 1, 2])
  await old.table('peopleKeys').bulkPut(
    blocks.map(({ block, contacts }) => keyBlockOf(block, contacts)),
    [0, 1, 2],
  )
  await old.table('contactRevs').put({ id: 'contacts', epoch: 'kept', size: 250, revs: [1, 1, 1] })
  await old.table('companies').bulkPut([
    { domain: 'orsted.dk', name: 'Ørsted', nameLower: 'ørsted', words: ['ørsted', 'orsted.dk'], data: {} },
    { domain: 'acme.io', name: 'Acme', nameLower: 'acme', words: ['acme', 'acme.io'], data: {} },
  ])
  old.close()
  return { name, people, blocks }
}

describe('upgrading a version-12 library', () => {
  it('folds anew the words of the people and companies whose letters now fold ("ostergaard" finds Østergaard), their blocks alone, with progress', async () => {
    const { name, people, blocks } = await versionTwelveLibrary()
    // Before the upgrade, the words as version 12 kept them: "ostergaard" names nobody.
    expect(people[120]!.words).toContain('østergaard')

    const { database, seen } = await openUpgrading(name)

    expect(database.verno).toBe(16)
    for (const typed of ['ostergaard', 'Østergaard', 'soren'])
      expect(await matchContactIds({ prefix: typed }, database)).toEqual([people[120]!.id])
    expect(await matchContactIds({ prefix: 'lukasz strauss' }, database)).toEqual([people[121]!.id])
    expect(await matchCompanyDomains({ prefix: 'orsted' }, database)).toEqual(['orsted.dk'])
    // Only the block of the people whose words changed is written, with its keys, a revision on.
    const after = await database.peopleBlocks.toArray()
    expect(after[0]).toEqual(blocks[0])
    expect(after[2]).toEqual(blocks[2])
    const others = (contacts: (ContactRecord | undefined)[]) =>
      contacts.filter((_, at) => at !== 20 && at !== 21)
    expect(others(after[1]!.contacts)).toEqual(others(blocks[1]!.contacts))
    for (const at of [20, 21]) {
      const { words, ...rest } = after[1]!.contacts[at]!
      const { words: _old, ...before } = blocks[1]!.contacts[at]!
      expect(rest).toEqual(before)
      expect(words).toEqual(contactWords(before))
    }
    expect(after[1]!.contacts[20]!.words).toEqual(expect.arrayContaining(['soren', 'ostergaard']))
    expect(await database.peopleKeys.get(1)).toEqual(keyBlockOf(1, after[1]!.contacts))
    expect(await database.contactRevs.get('contacts')).toEqual({
      id: 'contacts',
      epoch: 'kept',
      size: 250,
      revs: [1, 2, 1],
    })
    // Everyone else found as before.
    expect(await matchContactIds({ prefix: 'brown7' }, database)).toContain(people[7]!.id)
    expect(await countContacts(database)).toBe(250)
    expect(seen[0]).toEqual({ what: 'contacts', done: 0, total: 250 })
    expect(seen.at(-1)).toEqual({ what: 'contacts', done: 250, total: 250 })
    database.close()
  })

  it('a disk that fills during the upgrade: the opening fails as a disk problem, the words stay as version 12 kept them, and a later opening folds them', async () => {
    const { name, people, blocks } = await versionTwelveLibrary()
    // The disk fills as the changed block's keys are written, after the block itself.
    const failure = await openWithFullDisk(name, 'peopleKeys', 0)
    expect(openProblem(failure).kind).toBe('disk')
    // Nothing of the upgrade kept: version 12, its blocks as they were.
    const before = new VersionTwelveDb(name)
    await before.open()
    expect(before.verno).toBe(12)
    expect(await before.table('peopleBlocks').toArray()).toEqual(blocks)
    before.close()
    const { database } = await openUpgrading(name)
    expect(database.verno).toBe(16)
    expect(await matchContactIds({ prefix: 'ostergaard' }, database)).toEqual([people[120]!.id])
    database.close()
  })
})
