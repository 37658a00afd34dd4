import { describe, expect, it } from 'vitest'
import { changedLabel, changePhrase } from '@/features/library/person-answers'
import { formatDay } from '@/ui/format'

describe('what changed, in words', () => {
  it('says a move, a new title and a new email with the day each was seen', () => {
    const now = Date.UTC(2026, 10, 29)
    const at = Date.UTC(2026, 10, 28)
    const day = formatDay(at, now)
    expect(changePhrase({ field: 'company', from: 'Initech', to: 'Globex', at }, now)).toBe(
      `Moved from Initech to Globex, seen ${day}`,
    )
    expect(changePhrase({ field: 'jobTitle', from: 'Engineer', to: 'Lead', at }, now)).toBe(
      `Title changed from Engineer to Lead, seen ${day}`,
    )
    expect(changePhrase({ field: 'email', from: 'a@x.com', to: 'a@y.com', at }, now)).toBe(
      `Email changed from a@x.com to a@y.com, seen ${day}`,
    )
    expect(changedLabel('changed')).toBe('Changed since the last answer')
  })
})
