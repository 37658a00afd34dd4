import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import type { ResultRow } from '@shared/contract'
import { foundHeadline, listFoundFigures } from '@domain/found'
import { applyEnrichmentResults, listSummary } from '@/db/rows'
import { LeadkeeperDb, rowKey } from '@/db/schema'
import { allRows } from '../support/rows'
import { found, seed } from '../support/list-fixtures'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())
const text = (parts: ReturnType<typeof foundHeadline>) =>
  parts.map((part) => `${part.count} ${part.label}`).join(' · ')
const blank = (value: unknown) => value === null || value === undefined || String(value).trim() === ''

/** An email run's answer for row `index`: a fifth not found, a sixth found without an email. */
function emailAnswer(listId: string, index: number): ResultRow {
  if (index % 5 === 0)
    return {
      key: rowKey(listId, index),
      status: 'not_found',
      kinds: ['email'],
      data: { enriched: false, contact_email_address: null, contact_email_address_status: 'not_found' },
    }
  const row = found(listId, index, {
    contact_phone_number: null,
    ...(index % 6 === 0
      ? { contact_email_address: null, contact_email_address_status: 'not_found' }
      : { contact_email_address_status: index % 7 === 0 ? 'undeliverable' : 'deliverable' }),
  })
  return { ...row, kinds: ['email'] }
}

describe("a list's headline", () => {
  it('says what its rows hold, as the rows themselves do, through an email run and a phone run', async () => {
    const database = freshDb()
    await seed(database, 'L', 60)
    const answered = Array.from({ length: 50 }, (_, index) => emailAnswer('L', index))
    await applyEnrichmentResults('L', answered, 1, database)

    const rows = await allRows(database, 'L')
    const isFound = rows.filter((row) => row.status === 'found')
    const withEmail = isFound.filter((row) => !blank(row.result?.['contact_email_address'])).length
    const notFound = rows.filter((row) => row.status === 'not_found').length
    expect(withEmail).toBeGreaterThan(0)
    expect(isFound.length - withEmail).toBeGreaterThan(0)

    const summary = await listSummary('L', database)
    expect(summary).toMatchObject({ emailAnswered: 50, emailFound: withEmail })
    const figures = (phones: boolean, counts = summary) =>
      listFoundFigures(
        {
          found: counts.byStatus['found'] ?? 0,
          notFound: counts.byStatus['not_found'] ?? 0,
          emailAnswered: counts.emailAnswered,
          emailFound: counts.emailFound,
          phoneFound: counts.phoneFound,
        },
        phones,
      )
    expect(text(foundHeadline(figures(false)))).toBe(
      `${withEmail} emails found · ${isFound.length - withEmail} found without an email · ${notFound} not found`,
    )

    // Phones for the rows found: the emails stay as they were, the phones join the headline.
    const phoneRun = isFound.map((row): ResultRow => ({
      ...found('L', row.index, { contact_phone_number: row.index % 2 ? '+33 1 23' : null }),
      kinds: ['phone'],
    }))
    await applyEnrichmentResults('L', phoneRun, 2, database)
    const after = await listSummary('L', database)
    const phones = (await allRows(database, 'L')).filter(
      (row) => !blank(row.result?.['contact_phone_number']),
    )
    expect(after.emailFound).toBe(withEmail)
    expect(text(foundHeadline(figures(true, after)))).toBe(
      [
        `${withEmail} emails found`,
        `${isFound.length - withEmail} found without an email`,
        `${phones.length} phones found`,
        `${isFound.length - phones.length} found without a phone`,
        `${notFound} not found`,
      ].join(' · '),
    )
  })

  it('speaks of no email when none was looked up', async () => {
    const database = freshDb()
    await seed(database, 'P', 4)
    await applyEnrichmentResults(
      'P',
      [0, 1, 2].map((index) => ({
        ...found('P', index, { contact_email_address: null, contact_email_address_status: null }),
        kinds: ['phone' as const],
      })),
      1,
      database,
    )
    const summary = await listSummary('P', database)
    expect(summary.emailAnswered).toBe(0)
    const figures = listFoundFigures(
      { found: 3, notFound: 0, emailAnswered: 0, emailFound: 0, phoneFound: summary.phoneFound },
      true,
    )
    expect(text(foundHeadline(figures))).toBe('1 phone found · 2 found without a phone · 0 not found')
  })
})
