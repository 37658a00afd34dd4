import { describe, expect, it } from 'vitest'
import { decideOutcome } from '../../../../../electron/engine/jobs/outcome'
import type { ChunkState, JobRecord } from '../../../../../electron/domain/jobs'

function job(states: ChunkState[], maxCredits?: number): JobRecord {
  return {
    id: 'job-x',
    kind: 'enrichment',
    state: 'running',
    createdAt: '',
    updatedAt: '',
    onUncertain: 'ask',
    maxCredits,
    chunks: states.map((state, index) => ({
      index,
      state,
      size: 1,
      submissions: 1,
      error:
        state === 'failed' || state === 'held_final'
          ? { code: 'credits', message: `chunk ${index}` }
          : undefined,
    })),
    counts: { rows: 0, done: 0, found: 0, notFound: 0 },
    creditsConsumed: 0,
    estimateMax: 0,
    resultSeq: 0,
    ackSeq: 0,
    requestsSent: 0,
  }
}

const calm = { cancelled: false, capped: false }

describe('decideOutcome', () => {
  it('is done when every chunk is done or skipped, and failed only when every chunk failed', () => {
    expect(decideOutcome(job(['done', 'skipped']), calm).state).toBe('done')
    expect(decideOutcome(job(['done', 'failed']), calm)).toEqual({
      state: 'done',
      error: { code: 'credits', message: 'chunk 1' },
    })
    expect(decideOutcome(job(['failed', 'failed']), calm).state).toBe('failed')
    expect(decideOutcome(job([]), calm).state).toBe('done')
  })

  it('puts cancellation first, then fatal errors, then what needs a decision', () => {
    const auth = { code: 'auth' as const, message: 'no' }
    expect(decideOutcome(job(['uncertain']), { ...calm, cancelled: true, fatal: auth }).state).toBe(
      'cancelled',
    )
    expect(decideOutcome(job(['uncertain']), { ...calm, fatal: auth })).toEqual({
      state: 'failed',
      error: auth,
    })
    const attention = decideOutcome(job(['uncertain', 'timed_out', 'pending']), {
      ...calm,
      submitBlocked: auth,
    })
    expect(attention.state).toBe('needs_attention')
    expect(attention.error?.code).toBe('outcome_unknown')
    expect(attention.error?.message).toMatch(/1 request\(s\) may or may not.*1 request\(s\) timed out/)
    expect(decideOutcome(job(['timed_out']), calm).error?.code).toBe('timeout')
  })

  it('reports a blocked submission, a held company page and the cap, in that order', () => {
    const credits = { code: 'credits' as const, message: 'Top up' }
    expect(
      decideOutcome(job(['pending', 'held_final']), { ...calm, submitBlocked: credits, capped: true }).error,
    ).toBe(credits)
    expect(decideOutcome(job(['done', 'held_final']), { ...calm, capped: true }).error?.message).toBe(
      'chunk 1',
    )
    const capped = decideOutcome(job(['done', 'pending', 'pending'], 10), { ...calm, capped: true })
    expect(capped.state).toBe('capped')
    expect(capped.error?.message).toMatch(/credit cap of 10: 2 request\(s\) not sent/)
    expect(decideOutcome(job(['done', 'done'], 10), { ...calm, capped: true }).state).toBe('done')
  })
})
