import { describe, expect, it } from 'vitest'
import { emailStatusOf, joinEnrichment } from '../../../../../electron/engine/jobs/adapters'
import { rowKeyField } from '../../../../../electron/engine/jobs/plan'
import { defaultSettings } from '../../../../../electron/engine/settings'

const echo = (ref: string) => [{ name: rowKeyField, value: ref, position: 0 }]

describe('joinEnrichment', () => {
  const planned = [
    { ref: 'a', lead: {}, rowKeys: ['a', 'a2'] },
    { ref: 'b', lead: {}, rowKeys: ['b'] },
    { ref: 'c', lead: {}, rowKeys: ['c'] },
  ]

  it('joins by the echoed key whatever the order, fans duplicates out and reports missing rows', () => {
    const rows = joinEnrichment(
      planned,
      [
        { enriched: false, custom_fields: echo('b') },
        { enriched: true, custom_fields: echo('a'), contact_email_address_status: 'deliverable' },
        { enriched: true, custom_fields: echo('zzz') },
      ],
      defaultSettings.emailStatuses,
    )
    expect(rows.map((row) => [row.key, row.status, row.emailStatus])).toEqual([
      ['a', 'found', 'deliverable'],
      ['a2', 'found', 'deliverable'],
      ['b', 'not_found', undefined],
      ['c', 'not_returned', undefined],
    ])
    expect(rows[0]?.data).not.toHaveProperty('custom_fields')
  })
})

describe('emailStatusOf', () => {
  it('keeps known statuses, calls anything else unknown, and ignores an absent one', () => {
    expect(emailStatusOf('catch_all_safe', defaultSettings.emailStatuses)).toBe('catch_all_safe')
    expect(emailStatusOf('valid', defaultSettings.emailStatuses)).toBe('valid')
    expect(emailStatusOf('greylisted', defaultSettings.emailStatuses)).toBe('unknown')
    expect(emailStatusOf(null, defaultSettings.emailStatuses)).toBeUndefined()
    expect(emailStatusOf('', defaultSettings.emailStatuses)).toBeUndefined()
  })
})
