import { afterEach, describe, expect, it } from 'vitest'
import { maxChunkWindow } from '../../../electron/engine/jobs/pacing'
import type { JobRecord } from '../../../electron/domain/jobs'
import type { Bed, Engine } from './harness'
import { engineFor, peopleRows, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const emailOnly = { email: true, phone: false, catchAll: false }
const outstanding = ['submitting', 'submitted', 'on_hold']

interface Watched {
  done: JobRecord
  /** The most chunks in flight at once. */
  peak: number
  /** The most credits charged plus what every chunk in flight could still cost, at once. */
  peakCommitted: number
}

/** Samples the job while it runs. */
async function settleWatching(engine: Engine, job: JobRecord, maxCostPerChunk = 0): Promise<Watched> {
  let peak = 0
  let peakCommitted = 0
  const sampler = setInterval(() => {
    const live = engine.manager.get(job.id)
    if (!live) return
    const inFlight = live.chunks.filter((chunk) => outstanding.includes(chunk.state)).length
    peak = Math.max(peak, inFlight)
    peakCommitted = Math.max(peakCommitted, live.creditsConsumed + inFlight * maxCostPerChunk)
  }, 5)
  try {
    return { done: await engine.manager.settled(job.id), peak, peakCommitted }
  } finally {
    clearInterval(sampler)
  }
}

describe('chunks in flight', () => {
  it('keeps a window sized from the rate limit and the expected processing time, without listener warnings', async () => {
    // 80 chunks of 10 leads, each processed for 2 s: the window, not the service, limits what is in flight.
    bed = await startBed({ leadWorkMs: 20_000 })
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    // Expected 10 × 6 s = 60 s per chunk at 100 requests a minute: far more than the window's ceiling.
    const engine = engineFor(bed, key, { chunkSize: 10, pollLeadWorkMs: 6_000 })
    const warnings: Error[] = []
    const onWarning = (warning: Error): void => void warnings.push(warning)
    process.on('warning', onWarning)
    try {
      const job = engine.manager.startEnrichment({ rows: peopleRows(800), options: emailOnly })
      const { done, peak } = await settleWatching(engine, job)
      await new Promise((resolve) => setImmediate(resolve))
      expect(done.state).toBe('done')
      expect(done.counts.done).toBe(800)
      // Polls share the rate limit with submissions, so a loaded machine may not fill the whole window.
      expect(peak).toBeGreaterThan(10)
      expect(peak).toBeLessThanOrEqual(maxChunkWindow)
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings.filter((warning) => warning.name === 'MaxListenersExceededWarning')).toEqual([])
  })

  it('never passes the credit cap with many chunks in flight', async () => {
    bed = await startBed({ leadWorkMs: 20_000 })
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const engine = engineFor(bed, key, { chunkSize: 5, maxChunksInFlight: 30 })
    // 40 chunks that could cost 5 each; 103 credits allow 20 of them to be outstanding at once, never 21.
    const job = engine.manager.startEnrichment({ rows: peopleRows(200), options: emailOnly, maxCredits: 103 })
    const { done, peak, peakCommitted } = await settleWatching(engine, job, 5)

    expect(done.state).toBe('capped')
    expect(peak).toBeGreaterThan(10)
    expect(peak).toBeLessThanOrEqual(20)
    expect(peakCommitted).toBeLessThanOrEqual(103)
    expect(done.creditsConsumed).toBeLessThanOrEqual(103)
    const log = await bed.sandbox.control.log()
    const charged = log.charges
      .filter((c) => c.accountId === accountId)
      .reduce((sum, c) => sum + c.credits, 0)
    expect(charged).toBeLessThanOrEqual(103)
    expect(done.creditsConsumed).toBeCloseTo(charged, 5)
  })
})
