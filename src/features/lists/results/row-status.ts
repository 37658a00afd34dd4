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
