import { describe, expect, it } from 'vitest'
import {
  foundHeadline,
  jobFoundFigures,
  listFoundFigures,
  tallyFound,
} from '../../../../electron/domain/found'
import type { JobCounts } from '../../../../electron/domain/jobs'
import { joinEnrichment } from '../../../../electron/engine/jobs/adapters'
import { rowKeyField } from '../../../../electron/engine/jobs/plan'
import { defaultSettings } from '../../../../electron/engine/settings'

const echo = (ref: string) => [{ name: rowKeyField, value: ref, position: 0 }]
const zero = (): JobCounts => ({ rows: 0, done: 0, found: 0, notFound: 0 })
const text = (parts: ReturnType<typeof foundHeadline>) =>
  parts.map((part) => `${part.count} ${part.label}`).join(' · ')

describe('tallyFound', () => {
  it('counts the found rows with an email and without, twins each, what a terminated batch joins', () => {
    const rows = joinEnrichment(
      [
        { ref: 'a', lead: {}, rowKeys: ['a', 'a2'], kinds: ['email', 'phone'] },
        { ref: 'b', lead: {}, rowKeys: ['b'], kinds: ['email', 'phone'] },
        { ref: 'c', lead: {}, rowKeys: ['c'], kinds: ['email', 'phone'] },
        { ref: 'd', lead: {}, rowKeys: ['d'], kinds: ['email', 'phone'] },
      ],
      [
        {
          enriched: true,
          custom_fields: echo('a'),
          contact_email_address: 'ada@acme.io',
          contact_email_address_status: 'deliverable',
          contact_phone_number: null,
        },
        // Undeliverable still brought an address: it was bought.
        {
          enriched: true,
          custom_fields: echo('b'),
          contact_email_address: 'bob@acme.io',
          contact_email_address_status: 'undeliverable',
          contact_phone_number: '+44 20 7946 0000',
        },
        {
          enriched: true,
          custom_fields: echo('c'),
          contact_email_address: null,
          contact_email_address_status: 'not_found',
          contact_phone_number: ' ',
        },
        { enriched: false, custom_fields: echo('d'), contact_email_address_status: 'not_found' },
      ],
      defaultSettings.emailStatuses,
    )
    const counts = zero()
    tallyFound(counts, rows)
    expect(counts).toMatchObject({ emails: 3, foundWithoutEmail: 1, phones: 1, foundWithoutPhone: 3 })
    // A second batch adds to the first.
    tallyFound(counts, rows.slice(0, 1))
    expect(counts).toMatchObject({ emails: 4, foundWithoutEmail: 1, phones: 1, foundWithoutPhone: 4 })
  })

  it('counts only the kinds an answer asked for: a phone run says nothing of the emails it holds', () => {
    const rows = joinEnrichment(
      [{ ref: 'a', lead: {}, rowKeys: ['a'], kinds: ['phone'] }],
      [
        {
          enriched: true,
          custom_fields: echo('a'),
          contact_email_address: 'ada@acme.io',
          contact_email_address_status: 'deliverable',
          contact_phone_number: '+44 20 7946 0000',
        },
      ],
      defaultSettings.emailStatuses,
    )
    const counts = zero()
    tallyFound(counts, rows)
    expect(counts).toMatchObject({ emails: 0, foundWithoutEmail: 0, phones: 1, foundWithoutPhone: 0 })
    expect(text(foundHeadline(jobFoundFigures({ ...counts, found: 1 }, { email: true, phone: true })))).toBe(
      '1 phone found · 0 found without a phone · 0 not found',
    )
  })

  it('reads what an answer that does not say its kinds holds: a lead search stripped of unasked fields', () => {
    const counts = zero()
    tallyFound(counts, [
      { key: 'x', status: 'found', data: { contact_email_address: 'x@acme.io' } },
      {
        key: 'y',
        status: 'found',
        data: { contact_email_address: null, contact_email_address_status: 'not_found' },
      },
      { key: 'z', status: 'found', data: { company_name: 'Acme' } },
    ])
    expect(counts).toMatchObject({ emails: 1, foundWithoutEmail: 1, phones: 0, foundWithoutPhone: 0 })
  })
})

describe('the headline', () => {
  it('leads with what was asked: emails, then phones, then the rows not found', () => {
    const counts = { rows: 480, done: 480, found: 380, notFound: 100, emails: 297, foundWithoutEmail: 83 }
    expect(text(foundHeadline(jobFoundFigures(counts, { email: true, phone: false })))).toBe(
      '297 emails found · 83 found without an email · 100 not found',
    )
    const both = { ...counts, phones: 120, foundWithoutPhone: 260 }
    expect(text(foundHeadline(jobFoundFigures(both, { email: true, phone: true })))).toBe(
      '297 emails found · 83 found without an email · 120 phones found · 260 found without a phone · 100 not found',
    )
  })

  it('speaks of an asked kind before anything is found, and says "found" alone only when nothing was asked', () => {
    const fresh = { ...zero(), emails: 0, foundWithoutEmail: 0, phones: 0, foundWithoutPhone: 0 }
    expect(text(foundHeadline(jobFoundFigures(fresh, { email: true, phone: false })))).toBe(
      '0 emails found · 0 found without an email · 0 not found',
    )
    // A run recorded before these were counted: no figure is made up.
    const older = { rows: 10, done: 10, found: 7, notFound: 3 }
    expect(text(foundHeadline(jobFoundFigures(older, { email: true, phone: false })))).toBe(
      '7 found · 3 not found',
    )
    expect(text(foundHeadline({ found: 1, notFound: 0, email: { found: 1, without: 0 } }))).toBe(
      '1 email found · 0 found without an email · 0 not found',
    )
  })

  it("gives a list's figures from its counts: emails once any was looked up, phones when asked", () => {
    const counts = { found: 380, notFound: 100, emailAnswered: 480, emailFound: 297, phoneFound: 0 }
    expect(text(foundHeadline(listFoundFigures(counts, false)))).toBe(
      '297 emails found · 83 found without an email · 100 not found',
    )
    expect(
      text(
        foundHeadline(listFoundFigures({ ...counts, emailAnswered: 0, emailFound: 0, phoneFound: 40 }, true)),
      ),
    ).toBe('40 phones found · 340 found without a phone · 100 not found')
  })
})
