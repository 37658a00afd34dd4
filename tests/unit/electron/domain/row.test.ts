import { describe, expect, it } from 'vitest'
import { listColumns } from '../../../../electron/domain/export/columns'
import { originsText, withAnswer, type ListRow } from '../../../../electron/domain/row'

const pending: ListRow = { index: 3, values: ['Ada'], status: 'pending' }

describe('withAnswer', () => {
  it('keeps the emails when phones come later, and marks where each came from', () => {
    const first = withAnswer(pending, {
      status: 'found',
      data: {
        contact_email_address: 'ada@acme.io',
        contact_email_address_status: 'deliverable',
        contact_phone_number: '',
      },
      kinds: ['email'],
      origin: { via: 'service', at: 1 },
    })
    const second = withAnswer(first, {
      status: 'not_found',
      data: {
        contact_email_address: '',
        contact_email_address_status: 'not_found',
        contact_phone_number: '',
      },
      kinds: ['phone'],
      origin: { via: 'twin', row: 0, at: 2 },
    })
    expect(second.status).toBe('found')
    expect(second.result).toMatchObject({
      contact_email_address: 'ada@acme.io',
      contact_email_address_status: 'deliverable',
      contact_phone_number: '',
    })
    expect(second.answers).toEqual({ email: 1, phone: 2 })
    expect(originsText(second)).toBe('email: the service; phone: same person as row 1, not charged')
  })

  it('lets a newer answer for the same kind replace the old one, blanks included', () => {
    const found = withAnswer(pending, {
      status: 'found',
      data: { contact_email_address: 'ada@acme.io' },
      kinds: ['email'],
      origin: { via: 'service', at: 1 },
    })
    const again = withAnswer(found, {
      status: 'not_found',
      data: { contact_email_address: '' },
      kinds: ['email'],
      origin: { via: 'service', at: 9 },
    })
    expect(again.result?.contact_email_address).toBe('')
    expect(again.answers?.email).toBe(9)
  })

  it('leaves an earlier result alone when an answer brings no data', () => {
    const found = withAnswer(pending, {
      status: 'found',
      data: { a: 1 },
      kinds: ['email'],
      origin: { via: 'service', at: 1 },
    })
    expect(withAnswer(found, { status: 'skipped', note: 'x' })).toBe(found)
    expect(withAnswer(pending, { status: 'invalid', note: 'why' })).toMatchObject({
      status: 'invalid',
      note: 'why',
    })
  })

  it('says a library answer with the date it was found', () => {
    const row = withAnswer(pending, {
      status: 'found',
      data: {},
      kinds: ['email'],
      origin: { via: 'library', contactId: 'c:1', at: Date.UTC(2026, 10, 2) },
    })
    expect(originsText(row)).toBe('from your library, found 2026-11-02, not charged')
  })
})

describe('listColumns', () => {
  it('appends status, origin and note after the enrichment columns, never repeating an input header', () => {
    const titles = listColumns(['First', 'Email', 'Status']).map((column) => column.title)
    expect(titles.slice(0, 4)).toEqual(['First', 'Email', 'Status', 'Email (enriched)'])
    expect(titles.slice(-3)).toEqual(['Status (enriched)', 'Result from', 'Note'])
  })
})
