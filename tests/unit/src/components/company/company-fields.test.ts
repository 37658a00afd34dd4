import { describe, expect, it } from 'vitest'
import {
  field,
  fieldText,
  formatDate,
  formatUsd,
  fundingRoundLabel,
  humanize,
  safeHref,
} from '@/components/company/company-fields'

describe('company fields', () => {
  it('reads either headquarters spelling and joins lists', () => {
    expect(field({ company_headquarters_city: 'Lyon' }, 'company_head_quarters_city')).toBe('Lyon')
    expect(fieldText({ company_head_quarters_city: 'Nice' }, 'company_head_quarters_city')).toBe('Nice')
    expect(fieldText({ company_keywords: ['a', 'b'] }, 'company_keywords')).toBe('a, b')
    expect(fieldText({ company_type: null }, 'company_type')).toBe('')
  })

  it('formats amounts, dates and names for reading', () => {
    expect(formatUsd(25_000_000)).toBe('$25M')
    expect(formatUsd(950_000)).toBe('$950,000')
    expect(formatUsd(null)).toBe('')
    expect(formatDate('2025-03-14')).toContain('2025')
    expect(formatDate('soon')).toBe('soon')
    expect(humanize('human_resources')).toBe('Human resources')
    expect(fundingRoundLabel('series_b')).toBe('Series B')
    expect(fundingRoundLabel('pre_seed')).toBe('Pre-Seed')
    expect(fundingRoundLabel('mystery_round')).toBe('Mystery round')
  })

  it('links only to web addresses', () => {
    expect(safeHref('acme.com')).toBe('https://acme.com/')
    expect(safeHref('https://x.io/a')).toBe('https://x.io/a')
    expect(safeHref('javascript:alert(1)')).toBeNull()
    expect(safeHref('file:///etc/passwd')).toBeNull()
    expect(safeHref('')).toBeNull()
  })
})
