import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { LeadkeeperDb, type Provenance } from '@/db/schema'
import {
  companyFacetCounts,
  contactFacetCounts,
  searchCompanies,
  searchContacts,
  upsertCompanies,
  upsertContacts,
} from '@/db/library'

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

describe('upsertContacts', () => {
  it('keys by contact id, fills identity and lower-case search keys, drops custom fields', async () => {
    const database = freshDb()
    const ids = await upsertContacts([enrichedRow], source('list', 'l1'), database)
    expect(ids).toEqual(['c:42'])
    const contact = (await database.contacts.get('c:42'))!
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
    const contact = (await database.contacts.get('c:42'))!
    expect(contact.phone).toBe('+44 1')
    expect(contact.email).toBe('Ada@Engines.io')
    expect(contact.jobTitle).toBe('Countess')
    expect(contact.sources.map((one) => `${one.kind}:${one.id}`)).toEqual(['list:l1', 'lookup:k1'])
    expect(contact.firstSeenAt).toBe(1000)
    expect(contact.updatedAt).toBe(3000)
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

  it('matches a prefix of name, email or domain, case-insensitive, with facets', async () => {
    const database = await seeded()
    expect((await searchContacts({ prefix: 'MARA' }, database)).total).toBe(30)
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
  })

  it('pages with after and reports the next cursor', async () => {
    const database = await seeded()
    const first = await searchContacts({ limit: 25 }, database)
    const second = await searchContacts({ limit: 25, after: first.next! }, database)
    const third = await searchContacts({ limit: 25, after: second.next! }, database)
    expect(first.total).toBe(60)
    expect(third.next).toBeNull()
    const ids = [...first.items, ...second.items, ...third.items].map((c) => c.id)
    expect(new Set(ids).size).toBe(60)
  })

  it('searches companies by name or domain and counts facets from the indexes', async () => {
    const database = await seeded()
    expect((await searchCompanies({ prefix: 'ac' }, database)).items.map((c) => c.domain)).toEqual([
      'acme.com',
    ])
    expect((await searchCompanies({ facets: { industry: ['software'] } }, database)).total).toBe(1)
    const counts = await contactFacetCounts(database)
    expect(counts.country).toEqual([
      { value: 'France', count: 48 },
      { value: 'Spain', count: 12 },
    ])
    expect((await companyFacetCounts(database)).industry).toHaveLength(2)
  })
})
