import { describe, expect, it } from 'vitest'
import { normalizeDomain, normalizeRow } from '../../../../../electron/engine/jobs/normalize'
import {
  estimateCompanySearch,
  estimateEnrichment,
  estimateLeadSearch,
  planEnrichment,
} from '../../../../../electron/engine/jobs/plan'
import { defaultSettings } from '../../../../../electron/engine/settings'

describe('normalizeDomain', () => {
  it.each([
    ['https://www.Example.com/about?x=1', 'example.com'],
    ['http://example.com:8080/', 'example.com'],
    ['  WWW.example.co.uk  ', 'example.co.uk'],
    ['jane.doe@Example.com', 'example.com'],
    ['example.com.', 'example.com'],
    ['', ''],
  ])('%s → %s', (input, expected) => expect(normalizeDomain(input)).toBe(expected))
})

describe('normalizeRow', () => {
  it('splits a full name and takes the domain from the website or the email', () => {
    expect(
      normalizeRow({ key: 'a', full_name: ' Ada  Lovelace King ', website: 'https://www.acme.io/x' }),
    ).toEqual({
      first_name: 'Ada',
      last_name: 'Lovelace King',
      company_domain: 'acme.io',
    })
    expect(
      normalizeRow({ key: 'b', first_name: 'Ada', last_name: 'L', email: 'ada@acme.io' })?.company_domain,
    ).toBe('acme.io')
  })

  it('refuses a row that identifies nobody, but accepts a profile URL alone', () => {
    expect(normalizeRow({ key: 'a', first_name: 'Ada', company_domain: 'acme.io' })).toBeUndefined()
    expect(normalizeRow({ key: 'b', network_url: 'linkedin.com/in/ada/' })).toEqual({
      network_url: 'https://www.linkedin.com/in/ada',
    })
  })
})

describe('planEnrichment', () => {
  const rows = [
    { key: '1', first_name: 'Ada', last_name: 'Lovelace', company_domain: 'acme.io' },
    { key: '2', first_name: ' ada ', last_name: 'LOVELACE', company_domain: 'https://www.ACME.io/team' },
    { key: '3', first_name: 'Alan', last_name: 'Turing', company_domain: 'bletchley.uk', known: true },
    { key: '4', first_name: 'Grace' },
    { key: '5', first_name: 'Grace', last_name: 'Hopper', company_domain: 'navy.mil' },
  ]

  it('sends duplicates once, skips known and unidentifiable rows, and chunks the rest', () => {
    const plan = planEnrichment(rows, 1)
    expect(plan.chunks.map((chunk) => chunk.map((lead) => lead.rowKeys))).toEqual([[['1', '2']], [['5']]])
    expect(plan.knownKeys).toEqual(['3'])
    expect(plan.invalidKeys).toEqual(['4'])
    expect(plan.duplicates).toBe(1)
  })

  it('never puts more than 100 leads in a chunk whatever the setting', () => {
    const many = Array.from({ length: 250 }, (_, i) => ({
      key: String(i),
      first_name: `F${i}`,
      last_name: 'L',
      company_domain: 'x.io',
    }))
    expect(planEnrichment(many, 500).chunks.map((chunk) => chunk.length)).toEqual([100, 100, 50])
  })

  it('rejects duplicate row keys, which would make the join ambiguous', () => {
    expect(() => planEnrichment([rows[0]!, rows[0]!], 100)).toThrow(/Duplicate row key/)
  })

  it('estimates from 0 to every unique lead found at the configured prices', () => {
    const estimate = estimateEnrichment(rows, { email: true, phone: true }, defaultSettings)
    expect(estimate).toMatchObject({ rows: 5, toSend: 2, known: 1, invalid: 1, duplicates: 1, minCredits: 0 })
    expect(estimate.maxCredits).toBe(22)
    const cheap = estimateEnrichment(
      rows,
      { email: true, phone: false },
      { ...defaultSettings, prices: { ...defaultSettings.prices, email: 3 } },
    )
    expect(cheap.maxCredits).toBe(6)
  })
})

describe('search estimates', () => {
  const prices = defaultSettings.prices

  it('a lead search costs nothing without enrichment, and is bounded by max_leads or limit with it', () => {
    expect(estimateLeadSearch({ limit: 50 }, prices)).toEqual({ requests: 1, minCredits: 0, maxCredits: 0 })
    expect(estimateLeadSearch({ limit: 50, maxLeads: 20, email: true, phone: true }, prices).maxCredits).toBe(
      220,
    )
    expect(estimateLeadSearch({ email: true }, prices).maxCredits).toBeNull()
  })

  it('a company search costs up to a full page per page, and cannot be bounded when every page is wanted', () => {
    expect(estimateCompanySearch({ limit: 20, pages: 3 }, { ...prices, companySearchResult: 2 })).toEqual({
      requests: 3,
      minCredits: 0,
      maxCredits: 120,
    })
    expect(estimateCompanySearch({ limit: 20 }, prices)).toEqual({
      requests: null,
      minCredits: 0,
      maxCredits: null,
    })
  })
})
