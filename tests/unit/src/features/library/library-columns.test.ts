import { describe, expect, it } from 'vitest'
import type { CompanyRecord, ContactRecord } from '@/db/records'
import { companyColumns, contactColumns, facetOptions } from '@/features/library/library-columns'

const company = (data: Record<string, unknown>) =>
  ({ domain: 'acme.io', name: 'Acme', data }) as CompanyRecord
const employees = (data: Record<string, unknown>) =>
  companyColumns.find((column) => column.key === 'employees')!.value(company(data))

describe("the library's columns", () => {
  it("give a company's head count, else its band as its drawer gives it", () => {
    expect(employees({ company_employees_count: 120, company_employees_range_start: 101 })).toBe('120')
    expect(employees({ company_employees_range_start: 201, company_employees_range_end: 500 })).toBe(
      '201–500',
    )
    expect(employees({ company_employees_range_start: 10001, company_employees_range_end: null })).toBe(
      '10001+',
    )
    expect(employees({})).toBe('')
  })

  it("name a person's seniority as the seniority filter does", () => {
    const seniority = contactColumns.find((column) => column.key === 'seniority')!
    const person = (value: string) => ({ seniority: value }) as ContactRecord
    expect(seniority.value(person('vp'))).toBe('VP')
    expect(seniority.value(person('c_suite'))).toBe('C-suite')
    expect(seniority.value(person('director'))).toBe('Director')
    expect(seniority.value(person(''))).toBe('')
  })

  it("offer a facet's values with what each finds, and keep a value picked that the search no longer finds", () => {
    const counts = [
      { value: 'France', count: 1200 },
      { value: '', count: 4 },
      { value: 'Spain', count: 3 },
    ]
    expect(facetOptions(counts, ['Spain'])).toEqual([
      { value: 'France', label: 'France · 1,200' },
      { value: 'Spain', label: 'Spain · 3' },
    ])
    // Peru was picked, then a search found nobody there: it stays, at 0, its tag still named.
    expect(facetOptions(counts, ['Peru'], (value) => value.toUpperCase())).toEqual([
      { value: 'France', label: 'FRANCE · 1,200' },
      { value: 'Spain', label: 'SPAIN · 3' },
      { value: 'Peru', label: 'PERU · 0' },
    ])
    // Not counted yet: only what was picked.
    expect(facetOptions(undefined, ['Peru'])).toEqual([{ value: 'Peru', label: 'Peru · 0' }])
  })
})
