import { describe, expect, it } from 'vitest'
import { ago } from '@/ui/when'

describe('ago', () => {
  const now = Date.parse('2026-11-23T12:00:00Z')
  it('says how long ago in the largest whole unit', () => {
    expect(ago(now - 20_000, now, 'en')).toBe('just now')
    expect(ago(now - 5 * 60_000, now, 'en')).toBe('5 minutes ago')
    expect(ago(now - 3 * 3_600_000 - 59 * 60_000, now, 'en')).toBe('3 hours ago')
    expect(ago(now - 86_400_000, now, 'en')).toBe('yesterday')
    expect(ago(now - 15 * 86_400_000, now, 'en')).toBe('2 weeks ago')
    expect(ago(now - 400 * 86_400_000, now, 'en')).toBe('last year')
  })
  it('never speaks of the future for a clock that moved back', () => {
    expect(ago(now + 60_000, now, 'en')).toBe('just now')
  })
})
