import type { JobCounts, ResultRow } from './jobs'
import type { DataKind } from './kinds'
import { answeredData, isBlank, kindFields } from './row'

/** The field whose value is what a kind buys: an email address, a phone number. */
const valueField = { email: 'contact_email_address', phone: 'contact_phone_number' } as const
type BoughtKind = keyof typeof valueField

/**
 * Whether an answer asked for `kind`: as it says, or, for an answer that does not say (a lead
 * search's, stripped of the kinds it did not ask), by holding that kind's fields at all.
 */
function asked(data: Record<string, unknown>, kinds: readonly DataKind[] | undefined, kind: BoughtKind) {
  return kinds ? kinds.includes(kind) : kindFields[kind].some((field) => field in data)
}

/**
 * Adds what found rows brought to a job's counts: per kind asked, the rows that came back with a
 * value and those without. A row not found adds nothing here: it is `notFound`.
 */
export function tallyFound(counts: JobCounts, rows: readonly ResultRow[]): void {
  const tally = { emails: 0, foundWithoutEmail: 0, phones: 0, foundWithoutPhone: 0 }
  for (const row of rows) {
    if (row.status !== 'found' || !row.data) continue
    const data = answeredData(row.data, row.kinds)
    if (asked(data, row.kinds, 'email')) {
      if (isBlank(data[valueField.email])) tally.foundWithoutEmail++
      else tally.emails++
    }
    if (asked(data, row.kinds, 'phone')) {
      if (isBlank(data[valueField.phone])) tally.foundWithoutPhone++
      else tally.phones++
    }
  }
  for (const [field, count] of Object.entries(tally) as [keyof typeof tally, number][]) {
    counts[field] = (counts[field] ?? 0) + count
  }
}

/** What a run or a list found, by what it bought. */
export interface FoundFigures {
  found: number
  notFound: number
  /** Absent when no email was asked for. */
  email?: { found: number; without: number }
  /** Absent when no phone was asked for. */
  phone?: { found: number; without: number }
}

export interface HeadlinePart {
  key: 'emails' | 'withoutEmail' | 'phones' | 'withoutPhone' | 'found' | 'notFound'
  count: number
  /** What follows the count: "emails found". */
  label: string
}

const plural = (count: number, one: string, many: string) => (count === 1 ? one : many)

/**
 * The headline of what was found, leading with what was asked for: "297 emails found · 83 found
 * without an email · 100 not found". A bare "380 found" reads as 380 emails when 83 of those rows
 * have none; it is said only when neither an email nor a phone was asked for.
 */
export function foundHeadline(figures: FoundFigures): HeadlinePart[] {
  const parts: HeadlinePart[] = []
  const { email, phone } = figures
  if (email) {
    parts.push({
      key: 'emails',
      count: email.found,
      label: plural(email.found, 'email found', 'emails found'),
    })
    parts.push({ key: 'withoutEmail', count: email.without, label: 'found without an email' })
  }
  if (phone) {
    parts.push({
      key: 'phones',
      count: phone.found,
      label: plural(phone.found, 'phone found', 'phones found'),
    })
    parts.push({ key: 'withoutPhone', count: phone.without, label: 'found without a phone' })
  }
  if (!email && !phone) parts.push({ key: 'found', count: figures.found, label: 'found' })
  parts.push({ key: 'notFound', count: figures.notFound, label: 'not found' })
  return parts
}

/**
 * A run's figures from its counts. A kind is spoken of when some found row asked for it, or, before
 * anything is found, when the run asks for it: a run of phones for rows that have their emails
 * bought no email and says nothing of emails.
 */
export function jobFoundFigures(counts: JobCounts, asks: { email: boolean; phone: boolean }): FoundFigures {
  const kind = (bought: number | undefined, without: number | undefined, askedByRun: boolean) => {
    if (bought === undefined || without === undefined) return undefined
    return bought + without > 0 || (askedByRun && counts.found === 0) ? { found: bought, without } : undefined
  }
  const email = kind(counts.emails, counts.foundWithoutEmail, asks.email)
  const phone = kind(counts.phones, counts.foundWithoutPhone, asks.phone)
  return {
    found: counts.found,
    notFound: counts.notFound,
    ...(email ? { email } : {}),
    ...(phone ? { phone } : {}),
  }
}

/** A list's rows counted by status and by what they hold, from its facet counts. */
export interface ListFoundCounts {
  found: number
  notFound: number
  /** Rows whose email was looked up (they carry an email status), and of them those holding one. */
  emailAnswered: number
  emailFound: number
  phoneFound: number
}

/**
 * A list's figures: emails are spoken of once any row's email was looked up, phones when `phones`
 * (a run asked for them, or it is not known that none did). "Found without" is every found row not
 * holding one, whichever run found it.
 */
export function listFoundFigures(counts: ListFoundCounts, phones: boolean): FoundFigures {
  const without = (holding: number) => Math.max(0, counts.found - holding)
  return {
    found: counts.found,
    notFound: counts.notFound,
    ...(counts.emailAnswered > 0
      ? { email: { found: counts.emailFound, without: without(counts.emailFound) } }
      : {}),
    ...(phones ? { phone: { found: counts.phoneFound, without: without(counts.phoneFound) } } : {}),
  }
}
