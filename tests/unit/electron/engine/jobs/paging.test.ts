import { describe, expect, it } from 'vitest'
import { companyPageCount, nextCompanyPage } from '../../../../../electron/engine/jobs/paging'
import type { ChunkRecord } from '../../../../../electron/domain/jobs'

const page = (index: number, offset: number): ChunkRecord => ({
  index,
  state: 'done',
  size: 10,
  offset,
  submissions: 1,
})
const filters = { company_industry: { include: ['Software Development'] } }

describe('nextCompanyPage', () => {
  it('keeps the limit and raises the offset by it, sizing the last page to what is left', () => {
    const first = page(0, 0)
    const next = nextCompanyPage(
      { chunks: [first], search: { filters } },
      first,
      { filters, limit: 10, offset: 0 },
      10,
      25,
    )
    expect(next?.payload).toEqual({ filters, limit: 10, offset: 10 })
    expect(next?.chunk).toMatchObject({ index: 1, state: 'pending', offset: 10, size: 10 })
    const second = page(1, 10)
    const last = nextCompanyPage(
      { chunks: [first, second], search: { filters } },
      second,
      { filters, limit: 10, offset: 10 },
      10,
      25,
    )
    expect(last?.chunk).toMatchObject({ offset: 20, size: 5 })
  })

  it('stops at the matches, at the pages asked for, on an empty page, and when a later page is already planned', () => {
    const first = page(0, 0)
    const payload = { filters, limit: 10, offset: 0 }
    expect(nextCompanyPage({ chunks: [first], search: { filters } }, first, payload, 10, 10)).toBeUndefined()
    expect(
      nextCompanyPage({ chunks: [first], search: { filters, pages: 1 } }, first, payload, 10, 100),
    ).toBeUndefined()
    expect(nextCompanyPage({ chunks: [first], search: { filters } }, first, payload, 0, 100)).toBeUndefined()
    expect(
      nextCompanyPage({ chunks: [first, page(1, 10)], search: { filters } }, first, payload, 10, 100),
    ).toBeUndefined()
  })
})

describe('companyPageCount', () => {
  it('counts pages from the matches after the starting offset, capped by the pages asked for', () => {
    expect(companyPageCount({ filters, limit: 20 }, 95)).toBe(5)
    expect(companyPageCount({ filters, limit: 20, offset: 40 }, 95)).toBe(3)
    expect(companyPageCount({ filters, limit: 20, pages: 2 }, 95)).toBe(2)
    expect(companyPageCount({ filters, limit: 20 }, 0)).toBe(1)
  })
})
