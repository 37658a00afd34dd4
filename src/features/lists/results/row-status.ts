import type { RowRecord } from '@/db/records'

// Keyed by plain strings: a status the engine adds later still reads, as itself.
const meanings: Record<string, { label: string; meaning: string }> = {
  pending: { label: 'Not enriched yet', meaning: 'This row has not been through a run yet.' },
  found: { label: 'Found', meaning: 'The service found this person.' },
  not_found: { label: 'Not found', meaning: 'The service looked and found nobody matching this row.' },
  known: {
    label: 'Nothing new',
    meaning: 'An earlier run already answered this row, so it was not sent again.',
  },
  invalid: {
    label: 'Not enough to send',
    meaning: 'A name or a company domain was missing, so the row was not sent.',
  },
  skipped: { label: 'Skipped', meaning: 'You chose not to send this row.' },
  failed: {
    label: 'Failed',
    meaning: 'The request carrying this row failed; running the list again retries it.',
  },
  not_returned: { label: 'Not returned', meaning: 'The service answered without this row.' },
  not_sent: {
    label: 'Not sent',
    meaning: 'The run stopped (cancelled, or the credit cap was reached) before this row.',
  },
}

export function rowStatusInfo(status: RowRecord['status']): { label: string; meaning: string } {
  return meanings[status] ?? { label: status, meaning: '' }
}

/** A row's status in words: a row a run gave up (its request's outcome unknown) is not one the user skipped. */
export function rowStatusOf(row: Pick<RowRecord, 'status' | 'skip'>): { label: string; meaning: string } {
  if (row.status === 'skipped' && !row.skip)
    return {
      label: 'Given up',
      meaning:
        'A run gave up the request carrying this row, its outcome unknown: it may have been charged, so later runs hold it back.',
    }
  return rowStatusInfo(row.status)
}

/**
 * The rows' statuses as the list's "found" filter and its summary group them: what the service
 * found, what it looked for and did not find, what was not sent (not enough to send, answered
 * before), what was skipped (by the user, or given up by a run), what was sent and came back
 * without an answer, and what no run has reached.
 */
export const statusGroups = {
  found: ['found'],
  not_found: ['not_found'],
  not_sent: ['invalid', 'known'],
  skipped: ['skipped'],
  failed: ['failed', 'not_returned'],
  pending: ['pending'],
} as const satisfies Record<string, readonly string[]>
export type StatusGroup = keyof typeof statusGroups

/** The rows of `byStatus` (a list's counts by status) in a group. */
export const groupCount = (byStatus: Record<string, number>, group: StatusGroup): number =>
  statusGroups[group].reduce((sum, status) => sum + (byStatus[status] ?? 0), 0)
