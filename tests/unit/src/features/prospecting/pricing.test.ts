import { describe, expect, it } from 'vitest'
import {
  companyPages,
  costOfNextPages,
  firstPageMaxCost,
  leadSearchCost,
  nextRun,
  planPages,
} from '@/features/prospecting/pricing'
import { companyIdentity, uniqueByKey } from '@/features/prospecting/dedupe'

describe('leadSearchCost', () => {
  it('is free without enrichment and 0 to N with it', () => {
    expect(leadSearchCost({ email: false, phone: false, limit: 50 })).toEqual({ min: 0, max: 0 })
    expect(leadSearchCost({ email: true, phone: false, limit: 50 })).toEqual({ min: 0, max: 50 })
    expect(leadSearchCost({ email: true, phone: true, limit: 50, maxLeads: 20 })).toEqual({
      min: 0,
      max: 220,
    })
    expect(leadSearchCost({ email: false, phone: true })).toEqual({ min: 0, max: 250 })
  })
})

describe('company search pages', () => {
  it('are planned from companies_found with the last page partial and priced per company', () => {
    expect(companyPages(45, 20)).toEqual([
      { index: 0, offset: 0, size: 20, maxCost: 20 },
      { index: 1, offset: 20, size: 20, maxCost: 20 },
      { index: 2, offset: 40, size: 5, maxCost: 5 },
    ])
    expect(companyPages(0, 20)).toEqual([])
    expect(companyPages(10, 20, 2)).toEqual([{ index: 0, offset: 0, size: 10, maxCost: 20 }])
    expect(firstPageMaxCost(25)).toBe(25)
  })

  it('plans what is left after the pages already fetched', () => {
    const plan = planPages(45, 20, [0])
    expect(plan.totalPages).toBe(3)
    expect(plan.fetched).toBe(1)
    expect(plan.next?.offset).toBe(20)
    expect(costOfNextPages(plan, 1)).toBe(20)
    expect(costOfNextPages(plan, 5)).toBe(25)
    expect(nextRun(plan, 20, 5)).toEqual({ offset: 20, pages: 2 })
    const done = planPages(45, 20, [0, 20, 40])
    expect(done.next).toBeNull()
    expect(nextRun(done, 20, 1)).toBeNull()
  })

  it('stops a multi-page run at a page already fetched', () => {
    const plan = planPages(100, 20, [0, 40])
    expect(plan.remaining.map((page) => page.offset)).toEqual([20, 60, 80])
    expect(nextRun(plan, 20, 3)).toEqual({ offset: 20, pages: 1 })
  })
})

describe('de-duplication', () => {
  it('keeps each key once, first occurrence first, across pages', () => {
    const pages = [
      [
        { key: 'a', n: 1 },
        { key: 'b', n: 1 },
      ],
      [
        { key: 'b', n: 2 },
        { key: 'c', n: 2 },
      ],
      [{ key: 'a', n: 3 }],
    ]
    expect(uniqueByKey(pages)).toEqual([
      { key: 'a', n: 1 },
      { key: 'b', n: 1 },
      { key: 'c', n: 2 },
    ])
  })

  it('identifies a company by id, else by lower-case domain', () => {
    expect(companyIdentity({ company_id: 7, company_domain: 'x.com' })).toBe('company-7')
    expect(companyIdentity({ company_domain: 'X.com' })).toBe('domain-x.com')
  })
})
