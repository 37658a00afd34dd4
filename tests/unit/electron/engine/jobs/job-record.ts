import type { JobRecord } from '../../../../../electron/domain/jobs'

/** A queued enrichment of one chunk of two rows, as a ledger holds it; `overrides` change any field. */
export function jobRecord(id: string, overrides: Partial<JobRecord> = {}): JobRecord {
  return {
    id,
    kind: 'enrichment',
    state: 'queued',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    onUncertain: 'ask',
    chunks: [{ index: 0, state: 'pending', size: 2, submissions: 0 }],
    counts: { rows: 2, done: 0, found: 0, notFound: 0 },
    creditsConsumed: 0,
    estimateMax: 2,
    resultSeq: 0,
    ackSeq: 0,
    requestsSent: 0,
    ...overrides,
  }
}
