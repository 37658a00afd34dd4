import { describe, expect, it } from 'vitest'
import type { JobView } from '@shared/contract'
import { describeFilters } from '@/features/prospecting/describe'
import { runStatus } from '@/features/prospecting/state'

type View = Pick<JobView, 'state' | 'error' | 'chunkStates' | 'kind'>
const view = (patch: Partial<View>): View => ({
  state: 'running',
  chunkStates: {},
  kind: 'company_search',
  ...patch,
})

describe('runStatus', () => {
  it('explains a company page on hold: nothing charged, must be submitted again', () => {
    const status = runStatus(
      view({ state: 'failed', chunkStates: { held_final: 1 }, error: { code: 'credits', message: 'held' } }),
    )
    expect(status.kind).toBe('on_hold_final')
    expect(status.short).toBe('On hold')
    expect(status.detail).toContain('Nothing was charged')
    expect(status.detail).toContain('submitted again')
  })

  it('tells a time-out apart from other reasons for attention', () => {
    const timedOut = runStatus(view({ state: 'needs_attention', error: { code: 'timeout', message: 'x' } }))
    expect(timedOut.kind).toBe('timed_out')
    expect(timedOut.detail).toContain('still processing')
    const uncertain = runStatus(
      view({ state: 'needs_attention', error: { code: 'outcome_unknown', message: 'm' } }),
    )
    expect(uncertain).toMatchObject({ kind: 'attention', detail: 'm' })
  })

  it('reports a refusal for credits as something to submit again after a top-up', () => {
    const status = runStatus(view({ state: 'failed', error: { code: 'credits', message: 'No tokens.' } }))
    expect(status.kind).toBe('refused_credits')
    expect(status.detail).toContain('No tokens.')
    expect(runStatus(view({ state: 'failed', error: { code: 'server', message: 'boom' } })).kind).toBe(
      'failed',
    )
  })

  it('covers the ordinary states', () => {
    expect(runStatus(null).kind).toBe('idle')
    expect(runStatus(view({ state: 'queued' })).kind).toBe('working')
    expect(runStatus(view({ state: 'done' })).kind).toBe('done')
    expect(runStatus(view({ state: 'on_hold', kind: 'lead_search' })).detail).toContain('resumes by itself')
    expect(runStatus(view({ state: 'cancelled' })).kind).toBe('cancelled')
  })
})

describe('describeFilters', () => {
  it('names a search by its first values', () => {
    expect(describeFilters({})).toBe('Search')
    expect(
      describeFilters({
        company_industry: { include: ['Banking'], exclude: ['Insurance'] },
        is_b2b: true,
        company_headcount_min: 50,
        job_title: { include: ['CTO'] },
      }),
    ).toBe('Banking · not Insurance · 50 +1')
  })
})
