import { dataKinds, type Answers, type DataKind } from './kinds'

/**
 * A row of a list with what it has been given: the shape the app stores, the command line writes,
 * and the export reads, so that both faces put a result on a row the same way.
 */

/** What became of a row: `known` only in results of older runs, read as "nothing new". */
export type RowStatus = 'found' | 'not_found' | 'known' | 'invalid' | 'not_returned' | 'skipped' | 'failed'

/** Where a kind of data on a row came from, and when it was found. */
export type Origin =
  | { via: 'service'; at: number }
  /** Copied from the row (0-based index) of the same person, which was charged for it. */
  | { via: 'twin'; row: number; at: number }
  /** Taken from the library record, found at `at`. */
  | { via: 'library'; contactId: string; at: number }

export interface ListRow {
  /** 0-based position among the file's data rows. */
  index: number
  /** Input cells in column order, exactly as read. */
  values: string[]
  status: RowStatus | 'pending'
  /** The service's row, without `custom_fields`. */
  result?: Record<string, unknown>
  /** When each kind of data was answered for this row (found or not). */
  answers?: Answers
  origins?: Partial<Record<DataKind, Origin>>
  /** Why the row has no result, in plain words. */
  note?: string
}

/** Why a row that was not sent has no result, in the words both faces use. */
export const rowNotes = {
  invalid:
    'Needs a first name, a last name and a company domain that can exist (or a profile URL); not sent.',
  skipped: 'You chose not to send this row.',
} as const

/** What one answer brings to a row. */
export interface Answer {
  status: RowStatus
  data?: Record<string, unknown>
  /** The kinds this answer covers. */
  kinds?: readonly DataKind[]
  origin?: Origin
  note?: string
}

/** The fields that belong to a kind: an answer for that kind replaces them, even with blanks. */
export const kindFields: Record<DataKind, string[]> = {
  email: [
    'contact_email_address',
    'contact_email_address_status',
    'contact_email_address_provider',
    'email_provider',
  ],
  phone: ['contact_phone_number', 'contact_phone_number_provider'],
  catchAll: [],
}

/**
 * What an answer says, without the fields of kinds it was not asked for: a phone-only answer's
 * `contact_email_address_status` ("not_found": nothing was looked up) says nothing about the email.
 * An answer that does not say what it covers keeps everything.
 */
export function answeredData(
  data: Record<string, unknown>,
  kinds: readonly DataKind[] | undefined,
): Record<string, unknown> {
  if (!kinds) return data
  const unasked = new Set(
    dataKinds.filter((kind) => !kinds.includes(kind)).flatMap((kind) => kindFields[kind]),
  )
  const out: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(data)) if (!unasked.has(field)) out[field] = value
  return out
}

/** Null, undefined, blank strings and empty arrays carry no knowledge, so they never erase any. */
export function isBlank(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  )
}

/**
 * A row with an answer put on it. A later answer never erases what an earlier one found for a kind
 * it did not ask about (phones after emails keep the emails); for the kinds it answers it is the
 * newest word. An answer without data (skipped, failed) leaves an earlier result as it was.
 */
export function withAnswer<R extends ListRow>(before: R, answer: Answer): R {
  const { custom_fields: _echoed, ...data } = answeredData(answer.data ?? {}, answer.kinds)
  if (!answer.data) {
    if (before.result) return before
    return { ...before, status: answer.status, ...(answer.note ? { note: answer.note } : {}) }
  }
  const kinds = answer.kinds ?? []
  const replaced = new Set(kinds.flatMap((kind) => kindFields[kind]))
  // An answer that does not say what it covers (an older run's) is the whole truth about the row.
  const result: Record<string, unknown> = answer.kinds ? { ...before.result } : {}
  for (const [field, value] of Object.entries(data)) {
    if (replaced.has(field) || !isBlank(value) || !(field in result)) result[field] = value
  }
  const next: R = {
    ...before,
    status: answer.kinds && before.status === 'found' ? 'found' : answer.status,
    result,
  }
  delete next.note
  if (answer.origin && kinds.length > 0) {
    const answers: Answers = { ...before.answers }
    const origins = { ...before.origins }
    for (const kind of kinds) {
      answers[kind] = answer.origin.at
      origins[kind] = answer.origin
    }
    next.answers = answers
    next.origins = origins
  }
  return next
}

const isoDate = (at: number) => new Date(at).toISOString().slice(0, 10)

export function originText(origin: Origin): string {
  switch (origin.via) {
    case 'service':
      return 'the service'
    case 'twin':
      return `same person as row ${origin.row + 1}, not charged`
    case 'library':
      return `from your library, found ${isoDate(origin.at)}, not charged`
  }
}

/** Where a row's data came from, in one line: per kind when the kinds came from different places. */
export function originsText(row: Pick<ListRow, 'origins'>): string {
  const origins = row.origins
  if (!origins) return ''
  // Most rows have one origin, or one for every kind: a line of a million-row export, without arrays.
  let same: string | undefined
  for (const kind of dataKinds) {
    const origin = origins[kind]
    if (!origin) continue
    const text = originText(origin)
    if (same === undefined) same = text
    else if (text !== same) return perKind(origins)
  }
  return same ?? ''
}

function perKind(origins: NonNullable<ListRow['origins']>): string {
  return dataKinds
    .flatMap((kind) => {
      const origin = origins[kind]
      return origin ? [`${kind === 'catchAll' ? 'catch-all' : kind}: ${originText(origin)}`] : []
    })
    .join('; ')
}
