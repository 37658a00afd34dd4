import { describe, expect, it } from 'vitest'
import { buildFilters, draftFromFilters } from '@/features/prospecting/filters'
import { companySearchFields, leadSearchFields } from '@/features/prospecting/taxonomies'

describe('buildFilters', () => {
  it('builds lead search filters with include and exclude, trimmed, de-duplicated, blanks dropped', () => {
    const filters = buildFilters(
      leadSearchFields,
      {
        company_industry: {
          include: ['Software Development', ' Software Development ', ''],
          exclude: ['Banking'],
        },
        job_title: { include: ['CTO'], exclude: [] },
        contact_seniority: { include: [], exclude: [] },
        company_headcount_min: 50,
        is_b2b: false,
        company_name: '  Acme ',
        company_is_hiring: null,
      },
      'lead',
    )
    expect(filters).toEqual({
      company_industry: { include: ['Software Development'], exclude: ['Banking'] },
      job_title: { include: ['CTO'], exclude: [] },
      company_headcount_min: 50,
      is_b2b: false,
      company_name: 'Acme',
    })
  })

  it('lowercases domains for both kinds of search', () => {
    const draft = { company: { include: ['Acme.COM', 'acme.com'], exclude: ['Other.io'] } }
    expect(buildFilters(leadSearchFields, draft, 'lead')).toEqual({
      company: { include: ['acme.com'], exclude: ['other.io'] },
    })
    expect(buildFilters(companySearchFields, draft, 'company')).toEqual({
      company: { include: ['acme.com'] },
    })
  })

  it('never sends exclude, lead-only keys or unknown keys to company search', () => {
    const filters = buildFilters(
      companySearchFields,
      {
        company_industry: { include: ['Banking'], exclude: ['Accounting'] },
        company_technologies: { include: [], exclude: ['Salesforce'] },
        job_title: { include: ['CEO'], exclude: [] },
        made_up_key: 'x',
        company_founded_year_min: 2010.7,
      },
      'company',
    )
    expect(filters).toEqual({ company_industry: { include: ['Banking'] }, company_founded_year_min: 2010 })
  })

  it('reads saved filters back into a draft, dropping unknown keys', () => {
    const draft = draftFromFilters(leadSearchFields, {
      company_industry: { include: ['Banking'] },
      is_b2b: true,
      nonsense: 1,
    })
    expect(draft).toEqual({ company_industry: { include: ['Banking'], exclude: [] }, is_b2b: true })
  })
})

describe('taxonomy fields', () => {
  it('come from filters.json with their taxonomy values and groups', () => {
    const seniority = leadSearchFields.find((field) => field.key === 'contact_seniority')
    expect(seniority).toMatchObject({ type: 'list', group: 'person', matching: 'exact' })
    expect(seniority?.options).toContain('c_suite')
    expect(leadSearchFields.find((field) => field.key === 'job_title')?.options).toBeNull()
    expect(companySearchFields.some((field) => field.group === 'person')).toBe(false)
    const location = companySearchFields.find((field) => field.key === 'company_hq_location')
    expect(location?.options).toEqual(
      expect.arrayContaining(['United States', 'California', 'San Francisco']),
    )
  })
})
