import 'fake-indexeddb/auto'
import { describe, expect, it, vi } from 'vitest'
import { LeadkeeperDb } from '@/db/schema'
import type { Provenance } from '@/db/records'
import {
  companiesAt,
  companyFacetCounts,
  companySearchFacetCounts,
  contactFacetCounts,
  contactsByIds,
  contactSearchFacetCounts,
  contactsAt,
  isEverything,
  matchCompanyDomains,
  matchContactIds,
  searchCompanies,
  searchContacts,
} from '@/db/library-query'
import { contactFromPayload, upsertCompanies, upsertContacts } from '@/db/library-ingest'
import { contactTables, keyBlocksPerRead, primeContactIndex } from '@/db/library-contacts'
import { contactBlockSize } from '@/db/contact-index'
import { libraryService } from '@/db/library-service'
import { contactById, countContacts } from '../support/library'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())
const source = (kind: Provenance['kind'], id: string, at = 1000): Provenance => ({ kind, id, label: id, at })

const enrichedRow = {
  enriched: true,
  contact_id: 42,
  contact_first_name: 'Ada',
  contact_last_name: 'Lovelace',
  contact_full_name: 'Ada Lovelace',
  contact_email_address: 'Ada@Engines.io',
  contact_email_address_status: 'deliverable',
  contact_seniority: 'founder',
  contact_location_country: 'United Kingdom',
  contact_phone_number: null,
  company_name: 'Engines',
  company_domain: 'Engines.io',
  company_industry: 'software',
  company_headquarters_city: 'London',
  company_headquarters_country: 'United Kingdom',
  custom_fields: [{ name: 'key', value: 'l:0', position: 0 }],
}

/**
 * A library of 80 blocks of people, and of their keys (Ann and Bo by turns, one of them in Chile),
 * then opened anew as by another window, with its reads of key blocks watched.
 */
async function eightyBlocks() {
  const name = 't-' + crypto.randomUUID()
  const count = 80 * contactBlockSize
  const people = Array.from({ length: count }, (_, i) => ({
    contact_id: i,
    contact_full_name: `${i % 2 ? 'Ann' : 'Bo'} Ek${i}`,
    contact_location_country: i === 5 ? 'Chile' : 'France',
  }))
  await upsertContacts(people, source('list', 'l'), new LeadkeeperDb(name))
  const fresh = new LeadkeeperDb(name)
  return { name, count, fresh, reads: vi.spyOn(fresh.peopleKeys, 'bulkGet') }
}

describe('upsertContacts', () => {
  it('keys by contact id, fills identity and lower-case search keys, drops custom fields', async () => {
    const database = freshDb()
    const ids = await upsertContacts([enrichedRow], source('list', 'l1'), database)
    expect(ids).toEqual(['c:42'])
    const contact = (await contactById('c:42', database))!
    expect(contact.identity).toBe('ada lovelace@engines.io')
    expect(contact.emailLower).toBe('ada@engines.io')
    expect(contact.domainLower).toBe('engines.io')
    expect(contact.nameLower).toBe('ada lovelace')
    expect(contact.data['custom_fields']).toBeUndefined()
    expect(contact.data['company_head_quarters_city']).toBe('London')
  })

  it('falls back to email, then to name@domain, and finds a known person from a thinner payload', async () => {
    const database = freshDb()
    const ids = await upsertContacts(
      [
        { contact_email_address: 'Bob@X.com', contact_full_name: 'Bob B' },
        { contact_first_name: 'Cy', contact_last_name: 'Dee', company_domain: 'y.org' },
        { contact_job_title: 'nobody' },
      ],
      source('lead_search', 's1'),
      database,
    )
    expect(ids).toEqual(['e:bob@x.com', 'n:cy dee@y.org', null])
    const again = await upsertContacts(
      [{ contact_first_name: 'Ada', contact_last_name: 'Lovelace', company_domain: 'engines.io' }],
      source('lookup', 'k1'),
      database,
    )
    expect(again).toEqual(['n:ada lovelace@engines.io'])
    await upsertContacts([enrichedRow], source('list', 'l1'), database)
    const third = await upsertContacts(
      [{ contact_first_name: 'Ada', contact_last_name: 'Lovelace', company_domain: 'engines.io' }],
      source('lookup', 'k2'),
      database,
    )
    expect(third).toEqual(['n:ada lovelace@engines.io'])
  })

  it('merges: later values fill gaps and never erase; each source is listed once', async () => {
    const database = freshDb()
    await upsertContacts([enrichedRow], source('list', 'l1', 1000), database)
    await upsertContacts([enrichedRow], source('list', 'l1', 2000), database)
    await upsertContacts(
      [
        {
          contact_id: 42,
          contact_phone_number: '+44 1',
          contact_email_address: null,
          contact_job_title: 'Countess',
        },
      ],
      source('lookup', 'k1', 3000),
      database,
    )
    const contact = (await contactById('c:42', database))!
    expect(contact.phone).toBe('+44 1')
    expect(contact.email).toBe('Ada@Engines.io')
    expect(contact.jobTitle).toBe('Countess')
    expect(contact.sources.map((one) => `${one.kind}:${one.id}`)).toEqual(['list:l1', 'lookup:k1'])
    expect(contact.firstSeenAt).toBe(1000)
    expect(contact.updatedAt).toBe(3000)
  })

  it('merges one person met in different slices of a large batch, by email, then by id', async () => {
    const database = freshDb()
    const filler = (at: number) => ({ contact_id: 10_000 + at, contact_full_name: `Person ${at}` })
    // 4,500 payloads: merged a slice at a time, with turns for the page in between.
    const payloads: Record<string, unknown>[] = Array.from({ length: 4_500 }, (_, at) => filler(at))
    payloads[10] = { contact_email_address: 'ada@engines.io', contact_full_name: 'Ada Lovelace' }
    payloads[2_100] = {
      contact_email_address: 'ADA@engines.io',
      contact_id: 42,
      contact_location_country: 'France',
    }
    payloads[4_400] = { contact_id: 42, contact_job_title: 'Analyst' }
    const ids = await upsertContacts(
      payloads,
      source('list', 'l1'),
      database,
      [],
      payloads.map(contactFromPayload),
    )
    expect(ids[10]).toBe('e:ada@engines.io')
    expect(ids[2_100]).toBe('e:ada@engines.io')
    expect(ids[4_400]).toBe('e:ada@engines.io')
    expect(ids[4_499]).toBe('c:14499')
    expect(await countContacts(database)).toBe(4_498)
    expect(await contactById('e:ada@engines.io', database)).toMatchObject({
      fullName: 'Ada Lovelace',
      country: 'France',
      jobTitle: 'Analyst',
    })
    expect(await matchContactIds({ prefix: 'c:42' }, database)).toEqual(['e:ada@engines.io'])
  })

  it('two windows on one library see what the other stored, and a library begun anew is read anew', async () => {
    const name = 't-' + crypto.randomUUID()
    const [one, two] = [new LeadkeeperDb(name), new LeadkeeperDb(name)]
    await upsertContacts([enrichedRow], source('list', 'l1'), one)
    expect((await searchContacts({ prefix: 'ada' }, two)).items.map((c) => c.id)).toEqual(['c:42'])
    // The second window stores a new person and merges the first: the first window sees both.
    await upsertContacts(
      [
        { contact_id: 7, contact_full_name: 'Ada Byron' },
        { contact_id: 42, contact_job_title: 'Countess' },
      ],
      source('lookup', 'k'),
      two,
    )
    expect(await matchContactIds({ prefix: 'ada' }, one)).toEqual(['c:7', 'c:42'])
    expect((await contactById('c:42', one))!.jobTitle).toBe('Countess')
    // Emptied and filled again to the same size: nothing of the old index is kept.
    await Promise.all([two.peopleBlocks.clear(), two.peopleKeys.clear(), two.contactRevs.clear()])
    await upsertContacts([{ contact_id: 9, contact_full_name: 'Bo Ek' }], source('lookup', 'k2'), two)
    await upsertContacts([{ contact_id: 8, contact_full_name: 'Cy Ek' }], source('lookup', 'k3'), two)
    expect(await matchContactIds({}, one)).toEqual(['c:8', 'c:9'])
    expect(await matchContactIds({ prefix: 'ada' }, one)).toEqual([])
  })

  it('answers a first page from the newest people before a new window has read the rest', async () => {
    const { count, fresh, reads } = await eightyBlocks()
    // Browsing everything needs the count alone: no key block is read.
    expect((await contactsAt(count - 2, 5, fresh)).map((c) => c.id)).toEqual(['c:1', 'c:0'])
    expect(reads).not.toHaveBeenCalled()
    const page = await searchContacts({ prefix: 'ann', limit: 10 }, fresh)
    expect(page.items.map((c) => c.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c:${count - 1 - 2 * i}`),
    )
    expect(page.exact).toBe(false)
    // 80 key blocks, 32 a read: the newest 32 held the page.
    expect(keyBlocksPerRead).toBe(32)
    expect(reads).toHaveBeenCalledTimes(1)
    // The oldest people are read when asked for.
    expect(await searchContacts({ facets: { country: ['Chile'] } }, fresh)).toMatchObject({
      total: 1,
      exact: true,
    })
    expect(reads).toHaveBeenCalledTimes(3)
    expect(await matchContactIds({ prefix: 'ann' }, fresh)).toHaveLength(count / 2)
  })

  it('answers a first search after a start from the keys read as the library worker started', async () => {
    const { count, fresh, reads } = await eightyBlocks()
    // As the worker starts: one read, the newest 32 of 80 key blocks.
    await primeContactIndex(fresh)
    expect(reads).toHaveBeenCalledTimes(1)
    expect(reads.mock.calls[0]![0]).toEqual(Array.from({ length: 32 }, (_, i) => 79 - i))
    // The first search finds its page among them and reads no key block.
    const page = await searchContacts({ prefix: 'ann', limit: 10 }, fresh)
    expect(page.items.map((c) => c.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => `c:${count - 1 - 2 * i}`),
    )
    expect(reads).toHaveBeenCalledTimes(1)
    // A search they do not hold reads on from there, the blocks not read yet only.
    expect(await searchContacts({ facets: { country: ['Chile'] } }, fresh)).toMatchObject({
      total: 1,
      exact: true,
    })
    const read = reads.mock.calls.flatMap(([numbers]) => [...(numbers as number[])])
    expect(read.sort((a, b) => a - b)).toEqual(Array.from({ length: 80 }, (_, i) => i))
    expect(await matchContactIds({ prefix: 'ann' }, fresh)).toHaveLength(count / 2)
  })

  it('reads the index whole once when a count is asked while it is read ahead', async () => {
    const { count, fresh, reads } = await eightyBlocks()
    await primeContactIndex(fresh)
    const primed = reads.mock.calls.length
    // The library page opened (its index read ahead), and a search typed before that read is done.
    const [, ids, counts] = await Promise.all([
      libraryService(fresh).readIndexAhead(),
      matchContactIds({ prefix: 'ann' }, fresh),
      contactSearchFacetCounts({ prefix: 'ann' }, fresh),
    ])
    expect(ids).toHaveLength(count / 2)
    expect(counts.country).toEqual([
      { value: 'France', count: count / 2 - 1 },
      { value: 'Chile', count: 1 },
    ])
    // Every key block read once: the 32 newest as the worker started, the 48 others by the read
    // ahead, none again by the count or the facets that waited for it.
    const read = reads.mock.calls.slice(primed).flatMap(([numbers]) => [...(numbers as number[])])
    expect(read.sort((a, b) => a - b)).toEqual(Array.from({ length: 48 }, (_, i) => i))
    // Read ahead again later, nothing is read: the index is kept.
    const before = reads.mock.calls.length
    await libraryService(fresh).readIndexAhead()
    expect(await matchContactIds({ prefix: 'bo' }, fresh)).toHaveLength(count / 2)
    expect(reads.mock.calls.length).toBe(before)
  })

  it('finds people another window stored after the keys were read as the worker started', async () => {
    const { name, count, fresh } = await eightyBlocks()
    await primeContactIndex(fresh)
    // Another window files two people: one in a new block, one changed in the newest read block.
    const other = new LeadkeeperDb(name)
    await upsertContacts(
      [
        { contact_id: 'new', contact_full_name: 'Ann Zed' },
        { contact_id: count - 1, contact_full_name: 'Ann Ek-Changed' },
      ],
      source('lookup', 'k'),
      other,
    )
    const page = await searchContacts({ prefix: 'ann', limit: 3 }, fresh)
    expect(page.items.map((c) => [c.id, c.fullName])).toEqual([
      ['c:new', 'Ann Zed'],
      [`c:${count - 1}`, 'Ann Ek-Changed'],
      [`c:${count - 3}`, `Ann Ek${count - 3}`],
    ])
    // And a person changed in the newest block read, the library no larger: Ann Zed is now Cy Zed.
    const again = new LeadkeeperDb(name)
    await primeContactIndex(again)
    await upsertContacts([{ contact_id: 'new', contact_full_name: 'Cy Zed' }], source('lookup', 'k2'), other)
    const changed = await searchContacts({ prefix: 'ann', limit: 2 }, again)
    expect(changed.items.map((c) => c.fullName)).toEqual(['Ann Ek-Changed', `Ann Ek${count - 3}`])
  })

  it("keeps the library and its index as they were when a write's transaction fails", async () => {
    const database = freshDb()
    await upsertContacts([enrichedRow], source('list', 'l1'), database)
    const failed = database.transaction(
      'rw',
      [...contactTables(database), database.libraryCounts],
      async () => {
        await upsertContacts([{ contact_id: 7, contact_full_name: 'Bo Ek' }], source('lookup', 'k'), database)
        throw new Error('the disk is full')
      },
    )
    await expect(failed).rejects.toThrow('the disk is full')
    expect(await countContacts(database)).toBe(1)
    expect(await matchContactIds({ prefix: 'bo' }, database)).toEqual([])
    // The slot the failed write took is free: the next person takes it, found by every key.
    await upsertContacts([{ contact_id: 8, contact_full_name: 'Cy Ek' }], source('lookup', 'k2'), database)
    expect(await matchContactIds({}, database)).toEqual(['c:8', 'c:42'])
    expect((await contactById('c:8', database))!.fullName).toBe('Cy Ek')
    expect(await contactById('c:7', database)).toBeUndefined()
  })

  it('keeps when a list run answered each kind through a later search or lookup', async () => {
    const database = freshDb()
    await upsertContacts([enrichedRow], source('list', 'l1', 1000), database, [['email']])
    await upsertContacts(
      [{ contact_id: 42, contact_job_title: 'Countess' }],
      source('lookup', 'k1', 3000),
      database,
    )
    const contact = (await contactById('c:42', database))!
    expect(contact.answers).toEqual({ email: 1000 })
    expect(contact.jobTitle).toBe('Countess')
  })
})

describe('upsertCompanies', () => {
  it('keys by lower-case domain and merges every payload shape field by field', async () => {
    const database = freshDb()
    await upsertCompanies([enrichedRow], source('list', 'l1'), database)
    await upsertCompanies(
      [
        {
          company_id: 7,
          company_name: 'Engines',
          company_website: 'https://www.engines.io/about',
          company_domain: null,
          company_technologies: ['vue'],
          company_head_quarters_city: '',
          company_last_funding_round_name: 'series_a',
        },
      ],
      source('company_search', 'r1', 2000),
      database,
    )
    await upsertCompanies(
      [{ company_domain: 'engines.io', company_employees_number: 120, company_industry: null }],
      source('lookup', 'k1', 3000),
      database,
    )
    expect(await database.companies.count()).toBe(1)
    const company = (await database.companies.get('engines.io'))!
    expect(company.industry).toBe('software')
    expect(company.country).toBe('United Kingdom')
    expect(company.data['company_head_quarters_city']).toBe('London')
    expect(company.data['company_technologies']).toEqual(['vue'])
    expect(company.data['company_employees_count']).toBe(120)
    expect(company.data['contact_first_name']).toBeUndefined()
    expect(company.sources.map((one) => one.kind)).toEqual(['list', 'company_search', 'lookup'])
  })

  it('skips payloads without a domain', async () => {
    const database = freshDb()
    expect(await upsertCompanies([{ company_name: 'Nowhere' }], source('lookup', 'k'), database)).toEqual([
      null,
    ])
    expect(await database.companies.count()).toBe(0)
  })
})

describe('library search', () => {
  async function seeded() {
    const database = freshDb()
    const people = Array.from({ length: 60 }, (_, i) => ({
      contact_id: i,
      contact_full_name: `${i % 2 ? 'Mara' : 'Otto'} Person${i}`,
      contact_email_address: `p${i}@${i % 3 ? 'acme' : 'zeta'}.com`,
      contact_email_address_status: i % 4 ? 'deliverable' : 'catch_all',
      contact_seniority: 'manager',
      contact_location_country: i % 5 ? 'France' : 'Spain',
      company_domain: `${i % 3 ? 'acme' : 'zeta'}.com`,
      company_name: i % 3 ? 'Acme' : 'Zeta',
      company_industry: i % 3 ? 'retail' : 'software',
    }))
    await upsertContacts(people, source('lead_search', 's'), database)
    await upsertCompanies(people, source('lead_search', 's'), database)
    return database
  }

  /** Contacts whose name, email and domain start with the same letters, to see the sections. */
  async function overlapping() {
    const database = freshDb()
    const person = (id: string, name: string, email: string, domain: string, country = 'France') => ({
      contact_id: id,
      contact_full_name: name,
      contact_email_address: email,
      contact_location_country: country,
      company_domain: domain,
    })
    await upsertContacts(
      [
        person('1', 'Zoe Marsh', 'marsh@zeta.com', 'zeta.com'),
        person('2', 'Mary Stone', 'mary@stone.io', 'stone.io', 'Spain'),
        person('3', 'Anna Blue', 'anna@marble.com', 'marble.com'),
        person('4', 'Mark Mayer', 'mark@mayer.de', 'mayer.de'),
        person('5', 'Bob Vance', 'bob@vance.com', 'mars.org', 'Spain'),
        person('6', 'Mara Lind', 'lind@mars.org', 'mars.org'),
        person('7', 'Tom Ash', 'mars@ash.com', 'ash.com'),
      ],
      source('lead_search', 's'),
      database,
    )
    return database
  }

  it('matches a prefix of name, email or domain, case-insensitive, with facets', async () => {
    const database = await seeded()
    expect(await searchContacts({ prefix: 'MARA' }, database)).toMatchObject({ total: 30, exact: true })
    expect((await searchContacts({ prefix: 'zeta' }, database)).total).toBe(20)
    expect((await searchContacts({ prefix: 'p1@' }, database)).items.map((c) => c.id)).toEqual(['c:1'])
    const spainZeta = await searchContacts({ prefix: 'zeta', facets: { country: ['Spain'] } }, database)
    expect(spainZeta.items.every((c) => c.country === 'Spain' && c.companyDomain === 'zeta.com')).toBe(true)
    expect(spainZeta.total).toBe(4)
    const risky = await searchContacts(
      { facets: { emailStatus: ['catch_all'], country: ['France'] } },
      database,
    )
    expect(risky.total).toBe(12)
    expect(
      await matchContactIds({ facets: { emailStatus: ['catch_all'], country: ['France'] } }, database),
    ).toEqual(risky.items.map((c) => c.id))
    expect(await searchContacts({ prefix: 'nobody' }, database)).toEqual({ items: [], total: 0, exact: true })
  })

  it('orders matches newest first, each person once', async () => {
    const database = await overlapping()
    const ids = await matchContactIds({ prefix: 'mar' }, database)
    // Each starts a word with "mar": Tom's email, Mara's name and domain, Bob's domain, Mark's name
    // and email, Anna's domain, Mary's name, Zoe's surname and email.
    expect(ids).toEqual(['c:7', 'c:6', 'c:5', 'c:4', 'c:3', 'c:2', 'c:1'])
    const page = await searchContacts({ prefix: 'mar' }, database)
    expect(page.items.map((c) => c.id)).toEqual(ids)
    expect(page).toMatchObject({ total: 7, exact: true })
    expect(await matchContactIds({ prefix: 'mars', facets: { country: ['Spain'] } }, database)).toEqual([
      'c:5',
    ])
    expect(await matchContactIds({ prefix: 'MARS.' }, database)).toEqual(['c:6', 'c:5'])
  })

  it('returns the first matches of a broad search in the order of the full set', async () => {
    const database = await seeded()
    for (const search of [{}, { prefix: 'p' }, { prefix: 'acme' }, { facets: { country: ['France'] } }]) {
      const all = await matchContactIds(search, database)
      for (const limit of [1, 7, 25]) {
        const page = await searchContacts({ ...search, limit }, database)
        expect(page.items.map((c) => c.id)).toEqual(all.slice(0, limit))
        expect(page).toMatchObject({ total: limit, exact: false })
      }
      const whole = await searchContacts({ ...search, limit: all.length }, database)
      expect(whole).toMatchObject({ total: all.length, exact: true })
    }
    const everyone = await matchContactIds({}, database)
    expect(everyone).toHaveLength(60)
    // Newest first: the people were stored 0 to 59.
    expect(everyone).toEqual(Array.from({ length: 60 }, (_, i) => `c:${59 - i}`))
  })

  it('reads the whole library by position in the order of an empty search', async () => {
    const database = await seeded()
    const all = await matchContactIds({}, database)
    expect((await contactsAt(0, 25, database)).map((c) => c.id)).toEqual(all.slice(0, 25))
    expect((await contactsAt(50, 25, database)).map((c) => c.id)).toEqual(all.slice(50))
    expect((await companiesAt(1, 5, database)).map((c) => c.domain)).toEqual(['zeta.com'])
    expect(isEverything({})).toBe(true)
    expect(isEverything({ prefix: '  ', facets: { country: [] } })).toBe(true)
    expect(isEverything({ prefix: 'a' })).toBe(false)
    expect(isEverything({ facets: { country: ['Spain'] } })).toBe(false)
  })

  it('finds people by any word of their name, accents and case folded, every word typed', async () => {
    const database = freshDb()
    const person = (id: string, name: string, email = '') => ({
      contact_id: id,
      contact_full_name: name,
      contact_email_address: email,
      company_domain: 'acme.com',
    })
    await upsertContacts(
      [
        person('1', 'Amy Brown', 'amy@acme.com'),
        person('2', 'Zoë Brownlee'),
        person('3', 'Zoe Adams'),
        person('4', 'Jean-Luc Picard'),
        person('5', 'Björn Ångström'),
        person('6', 'Tom Brow'),
        person('7', 'Søren Østergaard', 'søren@acme.com'),
        person('8', 'Łukasz Strauß'),
      ],
      source('list', 'l'),
      database,
    )
    const ids = (prefix: string) => matchContactIds({ prefix }, database)
    // Newest first.
    expect(await ids('brown')).toEqual(['c:2', 'c:1'])
    expect(await ids('zoe')).toEqual(['c:3', 'c:2'])
    expect(await ids('ZOË')).toEqual(await ids('zoe'))
    expect(await ids('zoe brow')).toEqual(['c:2'])
    expect(await ids('luc')).toEqual(['c:4'])
    expect(await ids('angstrom')).toEqual(['c:5'])
    expect(await ids('amy@')).toEqual(['c:1'])
    // Letters that are not a letter and an accent fold too, as people type them without.
    for (const typed of ['ostergaard', 'oster', 'Østergaard', 'søren ØST', 'soren@'])
      expect(await ids(typed)).toEqual(['c:7'])
    for (const typed of ['lukasz strauss', 'Łukasz', 'STRAUẞ']) expect(await ids(typed)).toEqual(['c:8'])
    expect((await searchContacts({ prefix: 'brown' }, database)).items.map((c) => c.fullName)).toEqual([
      'Zoë Brownlee',
      'Amy Brown',
    ])
  })

  it('keeps one record for a person first stored by name and domain, later found with an id', async () => {
    const database = freshDb()
    const byName = { contact_first_name: 'Ada', contact_last_name: 'Lovelace', company_domain: 'engines.io' }
    const [first] = await upsertContacts([byName], source('lookup', 'x'), database)
    expect(first).toBe('n:ada lovelace@engines.io')
    const [second] = await upsertContacts(
      [
        {
          ...byName,
          contact_id: 77,
          contact_email_address: 'ada@engines.io',
          contact_location_country: 'France',
        },
      ],
      source('list', 'l'),
      database,
    )
    expect(second).toBe(first)
    expect(await countContacts(database)).toBe(1)
    const record = (await contactById(first!, database))!
    expect(record.sources.map((one) => one.kind)).toEqual(['lookup', 'list'])
    expect(record).toMatchObject({ email: 'ada@engines.io', country: 'France' })
    // Found again by the id alone, under the key it was first stored by.
    const [third] = await upsertContacts(
      [{ contact_id: 77, contact_job_title: 'Analyst' }],
      source('lookup', 'y'),
      database,
    )
    expect(third).toBe(first)
    expect(await countContacts(database)).toBe(1)
    expect(await matchContactIds({ prefix: 'c:77' }, database)).toEqual([first])
    // A search row or a lookup names them by their contact id or email: their page finds them so.
    expect((await contactById('c:77', database))?.id).toBe(first)
    expect((await contactById('e:ADA@engines.io', database))?.id).toBe(first)
    expect(await contactById('c:7', database)).toBeUndefined()
    // Two ids are two people, even with the same name and domain.
    const [other] = await upsertContacts([{ ...byName, contact_id: 78 }], source('list', 'l'), database)
    expect(other).toBe('c:78')
    expect(await countContacts(database)).toBe(2)
    expect((await contactFacetCounts(database)).country).toEqual([
      { value: '', count: 1 },
      { value: 'France', count: 1 },
    ])
  })

  it('keeps a rare facet value exact past the records a first page reads', async () => {
    const database = freshDb()
    // The first page checks at most 100,000 people; 100 here, so that 150 pass it.
    const people = Array.from({ length: 150 }, (_, i) => ({
      contact_id: i,
      contact_full_name: `Name ${String(i).padStart(4, '0')}`,
      // Newest first: person 20 is the 130th checked.
      contact_location_country: i === 20 ? 'Iceland' : 'France',
    }))
    await upsertContacts(people, source('list', 'l'), database)
    const search = { prefix: 'name', facets: { country: ['Iceland'] } }
    expect(await searchContacts({ ...search, readCap: 100 }, database)).toEqual({
      items: [],
      total: 0,
      exact: false,
    })
    // With room to read them all, the first page finds it and knows it is the only one.
    expect(await searchContacts(search, database)).toMatchObject({ total: 1, exact: true })
    expect(await matchContactIds(search, database)).toEqual(['c:20'])
  })

  it("counts a search's facets over its matches, each facet with its own values left free", async () => {
    const database = await seeded()
    // Otto: even people. Held: catch-all (every fourth) and Spain (every fifth): 0, 20 and 40.
    const search = { prefix: 'otto', facets: { emailStatus: ['catch_all'], country: ['Spain'] } }
    expect(await matchContactIds(search, database)).toEqual(['c:40', 'c:20', 'c:0'])
    expect(await contactSearchFacetCounts(search, database)).toEqual({
      // Ottos in Spain (0, 10, 20, 30, 40, 50) by their email status.
      emailStatus: [
        { value: 'catch_all', count: 3 },
        { value: 'deliverable', count: 3 },
      ],
      seniority: [{ value: 'manager', count: 3 }],
      // Ottos with a catch-all email (0, 4, … 56) by their country.
      country: [
        { value: 'France', count: 12 },
        { value: 'Spain', count: 3 },
      ],
      // Nobody's company, title or email has changed since an answer.
      changed: [{ value: '', count: 3 }],
    })
    // Words alone: every facet counted over the thirty Maras.
    expect((await contactSearchFacetCounts({ prefix: 'mara' }, database)).country).toEqual([
      { value: 'France', count: 24 },
      { value: 'Spain', count: 6 },
    ])
    expect(await contactSearchFacetCounts({ prefix: 'nobody' }, database)).toEqual({
      emailStatus: [],
      seniority: [],
      country: [],
      changed: [],
    })
  })

  it("counts a search's facets across blocks as its matches would, one facet let free at a time", async () => {
    const database = freshDb()
    const people = Array.from({ length: 3 * contactBlockSize + 17 }, (_, i) => ({
      contact_id: i,
      contact_full_name: `${['Ann', 'Bo', 'Cy'][i % 3]} Ek${i}`,
      contact_email_address_status: ['deliverable', 'catch_all', 'undeliverable', ''][i % 4],
      contact_seniority: i % 7 === 0 ? 'vp' : 'manager',
      contact_location_country: ['France', 'Spain', 'Chile', 'Peru', 'Norway'][i % 5],
    }))
    await upsertContacts(people, source('list', 'l'), database)
    const searches = [
      { prefix: 'ann', facets: { country: ['Spain', 'Chile'] } },
      { prefix: 'ek1', facets: { emailStatus: ['deliverable'], seniority: ['manager'] } },
      { facets: { country: ['Peru'], emailStatus: ['catch_all', 'undeliverable'], seniority: ['vp'] } },
    ]
    for (const search of searches) {
      const counts = await contactSearchFacetCounts(search, database)
      for (const facet of ['emailStatus', 'seniority', 'country'] as const) {
        // What the search finds with this facet's own values dropped, counted value by value.
        const free = { ...search, facets: { ...search.facets, [facet]: [] } }
        const found = await contactsByIds(await matchContactIds(free, database), database)
        const expected = new Map<string, number>()
        for (const contact of found)
          expected.set(contact[facet] ?? '', (expected.get(contact[facet] ?? '') ?? 0) + 1)
        expect(new Map(counts[facet].map(({ value, count }) => [value, count]))).toEqual(expected)
        expect(found.length).toBeGreaterThan(0)
      }
    }
  })

  it("counts a search's company facets from the indexes' keys", async () => {
    const database = freshDb()
    const company = (domain: string, industry: string, country: string) => ({
      company_domain: domain,
      company_name: domain.split('.')[0],
      company_industry: industry,
      company_head_quarters_country: country,
    })
    await upsertCompanies(
      [
        company('acme.com', 'retail', 'France'),
        company('acorn.io', 'software', 'France'),
        company('actis.de', 'software', 'Germany'),
        company('zeta.com', 'software', 'France'),
      ],
      source('company_search', 's'),
      database,
    )
    expect(
      await companySearchFacetCounts({ prefix: 'ac', facets: { country: ['France'] } }, database),
    ).toEqual({
      // The two French "ac" companies by industry; the three "ac" companies of any country.
      industry: [
        { value: 'retail', count: 1 },
        { value: 'software', count: 1 },
      ],
      country: [
        { value: 'France', count: 2 },
        { value: 'Germany', count: 1 },
      ],
    })
    expect(
      (await companySearchFacetCounts({ facets: { industry: ['software'] } }, database)).country,
    ).toEqual([
      { value: 'France', count: 2 },
      { value: 'Germany', count: 1 },
    ])
  })

  it('searches companies by name or domain and counts facets from the indexes', async () => {
    const database = await seeded()
    expect((await searchCompanies({ prefix: 'ac' }, database)).items.map((c) => c.domain)).toEqual([
      'acme.com',
    ])
    expect((await searchCompanies({ prefix: 'zeta.' }, database)).items.map((c) => c.domain)).toEqual([
      'zeta.com',
    ])
    expect(await searchCompanies({ facets: { industry: ['software'] } }, database)).toMatchObject({
      total: 1,
      exact: true,
    })
    expect(await matchCompanyDomains({}, database)).toEqual(['acme.com', 'zeta.com'])
    expect(await matchCompanyDomains({ prefix: 'z', facets: { industry: ['retail'] } }, database)).toEqual([])
    const counts = await contactFacetCounts(database)
    expect(counts.country).toEqual([
      { value: 'France', count: 48 },
      { value: 'Spain', count: 12 },
    ])
    expect(counts.emailStatus).toEqual([
      { value: 'deliverable', count: 45 },
      { value: 'catch_all', count: 15 },
    ])
    expect((await companyFacetCounts(database)).industry).toHaveLength(2)
  })
})

describe('what an answer changes', () => {
  const at = (domain: string, title: string) => ({
    contact_id: 7,
    contact_first_name: 'Ada',
    contact_last_name: 'Byron',
    contact_email_address: `ada@${domain}`,
    contact_job_title: title,
    company_name: domain === 'initech.com' ? 'Initech' : 'Globex',
    company_domain: domain,
  })

  it('keeps both, says so, and finds the people it happened to by a facet', async () => {
    const database = freshDb()
    await upsertContacts([at('initech.com', 'Engineer')], source('list', 'l1', 1000), database)
    expect((await contactById('c:7', database))!.changed).toBe('')
    await upsertContacts([at('globex.com', 'Lead engineer')], source('lookup', 'k', 2000), database)
    const moved = (await contactById('c:7', database))!
    expect(moved.companyName).toBe('Globex')
    expect(moved.changes).toEqual([
      { field: 'company', from: 'Initech', to: 'Globex', at: 2000 },
      { field: 'jobTitle', from: 'Engineer', to: 'Lead engineer', at: 2000 },
      { field: 'email', from: 'ada@initech.com', to: 'ada@globex.com', at: 2000 },
    ])
    expect(await matchContactIds({ facets: { changed: ['changed'] } }, database)).toEqual(['c:7'])
    expect((await contactFacetCounts(database)).changed).toEqual([{ value: 'changed', count: 1 }])

    // Answered again the same: nothing changed since the last answer, what changed before is kept.
    await upsertContacts([at('globex.com', 'Lead engineer')], source('list', 'l2', 3000), database)
    const again = (await contactById('c:7', database))!
    expect(again.changed).toBe('')
    expect(again.changes).toHaveLength(3)
    expect(await matchContactIds({ facets: { changed: ['changed'] } }, database)).toEqual([])
  })

  it('takes a value one answer lacks for no change', async () => {
    const database = freshDb()
    await upsertContacts([at('initech.com', 'Engineer')], source('list', 'l1', 1000), database)
    await upsertContacts(
      [{ contact_id: 7, contact_job_title: 'engineer' }],
      source('lookup', 'k', 2000),
      database,
    )
    const same = (await contactById('c:7', database))!
    expect(same.changes).toBeUndefined()
    expect(same.changed).toBe('')
  })
})
