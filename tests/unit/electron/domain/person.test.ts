import { describe, expect, it } from 'vitest'
import {
  domainProblem,
  identityOf,
  isPersonalDomain,
  isWellFormedDomain,
  leadOf,
  leadOfCells,
  mappedFields,
  People,
  personKeyOf,
  type ColumnMapping,
} from '../../../../electron/domain/person'

/** Cells in the columns first, last, full name, company domain, website, email, profile URL. */
const rows: string[][] = [
  ['Jane', 'Doe', '', 'acme.com', '', '', ''],
  [' Jane ', 'Doe', '', '', 'https://www.Acme.com/about?x=1', '', ''],
  ['', '', 'Jane van der Berg', '', '', 'jane@Acme.com', ''],
  ['Jane', '', 'Jane van der Berg', '', '', 'jane@acme.com', ''],
  ['', 'Berg', 'Jane van der Berg', 'acme.com', '', '', ''],
  ['Zoe\u0308', 'Brown', '', 'ÉCOLE.fr', '', '', ''],
  ['Jane\tDoe', '', '', 'gmail.com', '', '', ''],
  ['Jane', 'Doe', '', '', '', '', 'https://www.example.com/in/jane-doe/'],
  ['', '', '', '', '', '', ''],
  ['Jane', 'Doe', '', 'not a domain', '', '', ''],
  ['Jane', 'Doe', '', 'yahoo.co.uk', '', '', ''],
  ['Jane', 'Doe', '', '', '', 'jane@WWW2.acme.com.', ''],
]

const mappings: ColumnMapping[] = [
  { first_name: 0, last_name: 1, full_name: 2, company_domain: 3, website: 4, email: 5, network_url: 6 },
  { first_name: 0, last_name: 1, email: 5 },
  { full_name: 2, website: 4 },
  { first_name: 0, last_name: 1, company_domain: 3, network_url: 6 },
]

describe('leadOfCells', () => {
  it('reads every row as leadOf of its mapped fields does', () => {
    for (const mapping of mappings)
      for (const cells of rows)
        expect(leadOfCells(cells, mapping), JSON.stringify({ cells, mapping })).toEqual(
          leadOf(mappedFields(cells, mapping)),
        )
  })

  it('reads names, full names, domains and profile URLs as the rules say', () => {
    const all = mappings[0]!
    const lead = (at: number) => leadOfCells(rows[at]!, all)
    expect(lead(0)).toEqual({
      first: 'Jane',
      last: 'Doe',
      domain: 'acme.com',
      domainFrom: 'company_domain',
      networkUrl: '',
    })
    expect(lead(1)).toMatchObject({ first: 'Jane', domain: 'acme.com', domainFrom: 'website' })
    expect(lead(2)).toMatchObject({
      first: 'Jane',
      last: 'van der Berg',
      domain: 'acme.com',
      domainFrom: 'email',
    })
    expect(lead(3)).toMatchObject({ first: 'Jane', last: 'van der Berg' })
    expect(lead(4)).toMatchObject({ first: 'Jane', last: 'Berg' })
    expect(lead(5)).toMatchObject({ first: 'Zoë', last: 'Brown', domain: 'école.fr' })
    expect(lead(6)).toMatchObject({ first: 'Jane Doe', last: '', domain: 'gmail.com' })
    expect(lead(7)).toMatchObject({ networkUrl: 'example.com/in/jane-doe', domain: '' })
    expect(lead(8)).toEqual({ first: '', last: '', domain: '', domainFrom: null, networkUrl: '' })
    expect(lead(11)).toMatchObject({ domain: 'acme.com', domainFrom: 'email' })
    expect(leadOfCells(rows[0]!, { full_name: 0, website: 3 })).toMatchObject({ first: 'Jane', last: '' })
  })

  it('reads a domain the same when a cell was seen before, however many were seen between', () => {
    const mapping = { first_name: 0, last_name: 1, website: 2 }
    const first = leadOfCells(['Jane', 'Doe', 'https://www.Acme.com/x'], mapping)
    // More distinct cells than the remembered ones: the first is read again, not remembered.
    for (let at = 0; at < 25_000; at++) leadOfCells(['A', 'B', `https://www.site${at}.com`], mapping)
    expect(leadOfCells(['Jane', 'Doe', 'https://www.Acme.com/x'], mapping)).toEqual(first)
    expect(first.domain).toBe('acme.com')
  })
})

describe('domainProblem', () => {
  it('says what the two checks say, for domains seen once or many times', () => {
    const domains = ['acme.com', 'gmail.com', 'yahoo.fr', 'hotmail.co.uk', 'not a domain', 'a.b', 'école.fr']
    for (let round = 0; round < 2; round++)
      for (const domain of domains) {
        const expected = !isWellFormedDomain(domain)
          ? 'malformed_domain'
          : isPersonalDomain(domain)
            ? 'personal_domain'
            : null
        expect(domainProblem(domain), domain).toBe(expected)
      }
  })
})

describe('People', () => {
  it('finds a person again exactly when personKeyOf does', () => {
    const mapping = mappings[0]!
    const leads = [...rows, ...rows, ['jane', 'DOE', '', 'ACME.com', '', '', '']].map((cells) =>
      leadOf(mappedFields(cells, mapping)),
    )
    // A profile URL that reads like an identity is still a URL: the two are never the same person.
    leads.push({ first: '', last: '', domain: '', domainFrom: null, networkUrl: 'jane doe@acme.com' })
    const people = new People()
    const keys = new Set<string>()
    let repeated = 0
    for (const lead of leads) {
      const key = personKeyOf(lead)
      const before = key !== '' && keys.has(key)
      if (key) keys.add(key)
      if (before) repeated++
      expect(people.repeats(lead, identityOf(lead)), JSON.stringify(lead)).toBe(before)
    }
    // Some leads repeat, some have no key at all: both kinds were met.
    expect(leads.filter((lead) => personKeyOf(lead) === '').length).toBeGreaterThan(0)
    expect(repeated).toBeGreaterThan(5)
  })
})
