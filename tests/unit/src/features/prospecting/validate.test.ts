import { describe, expect, it } from 'vitest'
import { companySearchFields, leadSearchFields, optionLabel } from '@/features/prospecting/taxonomies'
import { companySearchWarnings, isBlocking, leadSearchWarnings } from '@/features/prospecting/validate'

const codes = (warnings: { code: string }[]) => warnings.map((warning) => warning.code)
const sound = { company_industry: { include: ['Banking'], exclude: [] } }

describe('leadSearchWarnings', () => {
  it('has nothing to say about a sound search', () => {
    expect(leadSearchWarnings(leadSearchFields, sound, { limit: 25, offset: 0, maxLeads: 100 })).toEqual([])
  })

  it('blocks an empty filter set (400)', () => {
    const warnings = leadSearchWarnings(leadSearchFields, { job_title: { include: [' '], exclude: [] } }, {})
    expect(codes(warnings)).toEqual(['empty_filters'])
    expect(isBlocking(warnings)).toBe(true)
  })

  it('blocks exclude-only filters, which match nothing', () => {
    const warnings = leadSearchWarnings(
      leadSearchFields,
      {
        company_industry: { include: [], exclude: ['Banking'] },
        contact_seniority: { include: [], exclude: ['owner'] },
      },
      {},
    )
    expect(codes(warnings)).toEqual(['exclude_only'])
    expect(isBlocking(warnings)).toBe(true)
  })

  it('blocks a single company domain with limit 1 and points to the company lookup', () => {
    const draft = { company: { include: ['Acme.com'], exclude: [] } }
    const warnings = leadSearchWarnings(leadSearchFields, draft, { limit: 1 })
    expect(codes(warnings)).toEqual(['single_company_lookup'])
    expect(warnings[0]?.message).toContain('Profile lookups')
    expect(leadSearchWarnings(leadSearchFields, draft, { limit: 2 })).toEqual([])
    const twoDomains = { company: { include: ['a.com', 'b.com'], exclude: [] } }
    expect(leadSearchWarnings(leadSearchFields, twoDomains, { limit: 1 })).toEqual([])
    expect(leadSearchWarnings(leadSearchFields, { ...draft, is_b2b: true }, { limit: 1 })).toEqual([])
  })

  it('blocks limit, offset and max_leads out of bounds, at each edge', () => {
    const check = (paging: object) => codes(leadSearchWarnings(leadSearchFields, sound, paging))
    expect(check({ limit: 1, offset: 0, maxLeads: 1 })).toEqual([])
    expect(check({ limit: 100, offset: 10_000, maxLeads: 1000 })).toEqual([])
    expect(check({ limit: 0 })).toEqual(['limit_out_of_bounds'])
    expect(check({ limit: 101 })).toEqual(['limit_out_of_bounds'])
    expect(check({ limit: 2.5 })).toEqual(['limit_out_of_bounds'])
    expect(check({ offset: -1 })).toEqual(['offset_out_of_bounds'])
    expect(check({ offset: 10_001 })).toEqual(['offset_out_of_bounds'])
    expect(check({ maxLeads: 0 })).toEqual(['max_leads_out_of_bounds'])
    expect(check({ maxLeads: 1001 })).toEqual(['max_leads_out_of_bounds'])
  })

  it('warns about values outside a taxonomy without blocking; locations ignore case', () => {
    const warnings = leadSearchWarnings(
      leadSearchFields,
      {
        company_industry: { include: ['banking', 'Banking'], exclude: [] },
        contact_location: { include: ['san francisco', 'Atlantis'], exclude: [] },
        job_title: { include: ['Chief Vibes Officer'], exclude: [] },
      },
      {},
    )
    expect(codes(warnings)).toEqual(['outside_taxonomy', 'outside_taxonomy'])
    expect(warnings[0]?.message).toContain('"banking"')
    expect(warnings[0]?.message).toContain('will match nothing')
    expect(warnings[1]?.message).toContain('"Atlantis"')
    expect(warnings[1]?.message).not.toContain('san francisco')
    expect(isBlocking(warnings)).toBe(false)
  })

  it('warns when a minimum is above its maximum', () => {
    const warnings = leadSearchWarnings(
      leadSearchFields,
      { company_headcount_min: 500, company_headcount_max: 50 },
      {},
    )
    expect(codes(warnings)).toEqual(['empty_range'])
  })

  it('blocks a webhook that is not https', () => {
    expect(
      codes(leadSearchWarnings(leadSearchFields, sound, { webhook: 'http://example.com/hook' })),
    ).toEqual(['webhook_not_https'])
    expect(leadSearchWarnings(leadSearchFields, sound, { webhook: 'https://example.com/hook' })).toEqual([])
  })
})

describe('companySearchWarnings', () => {
  it('blocks an empty set, including one made only of exclusions it would ignore', () => {
    expect(codes(companySearchWarnings(companySearchFields, {}, {}))).toEqual(['empty_filters'])
    const excludeOnly = { company_industry: { include: [], exclude: ['Banking'] } }
    expect(codes(companySearchWarnings(companySearchFields, excludeOnly, {}))).toEqual(['empty_filters'])
  })

  it('blocks limit outside 1 to 200 and a negative offset', () => {
    const check = (paging: object) => codes(companySearchWarnings(companySearchFields, sound, paging))
    expect(check({ limit: 1, offset: 0 })).toEqual([])
    expect(check({ limit: 200 })).toEqual([])
    expect(check({ limit: 201 })).toEqual(['limit_out_of_bounds'])
    expect(check({ limit: 0 })).toEqual(['limit_out_of_bounds'])
    expect(check({ offset: -5 })).toEqual(['offset_out_of_bounds'])
  })

  it('flags values outside a taxonomy', () => {
    const draft = { company_technologies: { include: ['salesforce'], exclude: [] } }
    expect(codes(companySearchWarnings(companySearchFields, draft, {}))).toEqual(['outside_taxonomy'])
  })
})

describe('optionLabel', () => {
  it('spells identifiers as words and leaves names as they are', () => {
    expect(optionLabel('c_suite')).toBe('C-suite')
    expect(optionLabel('vp')).toBe('VP')
    expect(optionLabel('customer_success')).toBe('Customer success')
    expect(optionLabel('Software Development')).toBe('Software Development')
    expect(optionLabel('$1M-$10M')).toBe('$1M-$10M')
  })
})
