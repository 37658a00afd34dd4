import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import {
  isBlank,
  isImplemented,
  matchCompanies,
  matchPeople,
  parseCompanyFilters,
  parseLeadFilters,
} from '../../../../electron/sandbox/filters'
import { getWorld } from '../../../../electron/sandbox/world'
import { companySearchFilters, leadSearchFilters } from '../../../../electron/sandbox/world/taxonomies'

const world = getWorld(5, { companies: 500, peoplePerCompany: 6 })
const taxonomyDir = new URL('../../../../resources/taxonomies/', import.meta.url)

describe('filters.json', () => {
  it.each([
    ...leadSearchFilters.map((s) => ['lead', s] as const),
    ...companySearchFilters.map((s) => ['company', s] as const),
  ])('%s search key %o is implemented with its declared type and taxonomy', (_search, spec) => {
    expect(isImplemented(spec)).toBe(true)
    expect(spec.label).not.toBe('')
    if (spec.taxonomy) {
      const values = JSON.parse(readFileSync(new URL(spec.taxonomy, taxonomyDir), 'utf8')) as unknown[]
      expect(values.length).toBeGreaterThan(0)
    }
  })

  it('lists the keys the spec names, and no lead-only key in company search', () => {
    const companyKeys = companySearchFilters.map((s) => s.key)
    for (const key of [
      'company_industry',
      'company_hq_location',
      'company_headcount_min',
      'company_headcount_max',
      'is_b2b',
      'company',
    ]) {
      expect(companyKeys).toContain(key)
    }
    expect(companyKeys).not.toContain('job_title')
    expect(leadSearchFilters.map((s) => s.key)).toContain('job_title')
  })
})

describe('filter parsing and matching', () => {
  it('treats blank values and unknown keys as blank', () => {
    expect(
      isBlank(parseLeadFilters({ job_title: { include: [' '], exclude: [] }, nope: { include: ['x'] } })),
    ).toBe(true)
    expect(isBlank(parseCompanyFilters({ company_industry: { exclude: ['Banking'] } }))).toBe(true)
    expect(isBlank(parseCompanyFilters({ is_b2b: false }))).toBe(false)
  })

  it('matches taxonomy values exactly and locations case-insensitively', () => {
    const exact = matchCompanies(
      world.companies,
      parseCompanyFilters({ company_industry: { include: ['Banking'] } }),
    )
    expect(exact.length).toBeGreaterThan(0)
    expect(exact.every((c) => c.industry === 'Banking')).toBe(true)
    expect(
      matchCompanies(world.companies, parseCompanyFilters({ company_industry: { include: ['banking'] } })),
    ).toEqual([])
    const located = matchCompanies(
      world.companies,
      parseCompanyFilters({ company_hq_location: { include: ['LONDON'] } }),
    )
    expect(located.length).toBeGreaterThan(0)
    expect(located.every((c) => c.hq.city === 'London')).toBe(true)
  })

  it('combines integer, boolean and text filters', () => {
    const filters = parseCompanyFilters({
      company_founded_year_min: 2000,
      company_total_funding_min: 1_000_000,
      company_is_hiring: false,
      company_name: 'a',
    })
    const found = matchCompanies(world.companies, filters)
    expect(found.length).toBeGreaterThan(0)
    for (const company of found) {
      expect(company.foundedYear).toBeGreaterThanOrEqual(2000)
      expect(company.totalRaisedUsd).toBeGreaterThanOrEqual(1_000_000)
      expect(company.activeJobPostings).toBe(0)
      expect(company.name.toLowerCase()).toContain('a')
    }
  })

  it('applies person filters and exclusions to people', () => {
    const filters = parseLeadFilters({
      contact_seniority: { include: ['director', 'vp'], exclude: ['vp'] },
      contact_department: { include: ['sales'] },
    })
    const found = matchPeople(world.people, filters)
    expect(found.length).toBeGreaterThan(0)
    expect(found.every((p) => p.seniority === 'director' && p.department === 'sales')).toBe(true)
    expect(matchPeople(world.people, parseLeadFilters({ job_title: { exclude: ['Intern'] } }))).toEqual([])
  })
})
