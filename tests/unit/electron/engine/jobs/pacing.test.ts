import { describe, expect, it } from 'vitest'
import { LeadWorkEstimate, chunkWindow, maxChunkWindow } from '../../../../../electron/engine/jobs/pacing'
import { defaultSettings, scaleDurations } from '../../../../../electron/engine/settings'

describe('chunkWindow', () => {
  it('keeps enough chunks in flight for the rate limit to be the bottleneck', () => {
    // 30 s a chunk and a tenth more, a slot every 0.6 s: 55 submissions during one chunk's work, plus 2.
    expect(chunkWindow(defaultSettings)).toBe(57)
  })

  it('does not depend on the time scale', () => {
    expect(chunkWindow(scaleDurations(defaultSettings, 0.01))).toBe(57)
  })

  it('follows the rate limit and the chunk size, within its ceiling', () => {
    expect(chunkWindow({ ...defaultSettings, rateLimitPerMinute: 20 })).toBe(13)
    expect(chunkWindow({ ...defaultSettings, chunkSize: 10 })).toBe(8)
    expect(chunkWindow({ ...defaultSettings, rateLimitPerMinute: 1000 })).toBe(maxChunkWindow)
  })

  it('takes an explicit maxChunksInFlight as is', () => {
    expect(chunkWindow({ ...defaultSettings, maxChunksInFlight: 4 })).toBe(4)
    expect(chunkWindow({ ...defaultSettings, maxChunksInFlight: 80 })).toBe(80)
    expect(chunkWindow({ ...defaultSettings, maxChunksInFlight: 0 })).toBe(1)
  })
})

describe('LeadWorkEstimate', () => {
  it('starts a little past the default: the whole first window is sent before anything is learnt', () => {
    const estimate = new LeadWorkEstimate(300)
    expect(estimate.msPerLead()).toBe(315)
    expect(estimate.firstPollDelayMs(100)).toBe(31_500)
  })

  it('shrinks a little after a first poll that finds the chunk done', () => {
    const estimate = new LeadWorkEstimate(300)
    estimate.observe(100, 31_500)
    expect(estimate.msPerLead()).toBeCloseTo(311.85, 6)
    // Done well before the estimate: the bound it gives is taken at once.
    estimate.observe(100, 10_000)
    expect(estimate.msPerLead()).toBeCloseTo(99, 6)
  })

  it('keeps the estimate when the first poll found the chunk done only after waiting for a rate slot', () => {
    const estimate = new LeadWorkEstimate(300)
    // Aimed at 31.5 s, answered at 45 s (queued behind other requests): no news about 31.5 s.
    estimate.observe(100, 45_000, 45_000, 31_500)
    expect(estimate.msPerLead()).toBe(315)
    // On time (a slot's wait and the round trip are within a tenth), it shrinks as before.
    estimate.observe(100, 32_000, 32_000, 31_500)
    expect(estimate.msPerLead()).toBeCloseTo(311.85, 6)
  })

  it('grows to the middle of what an early first poll showed', () => {
    const estimate = new LeadWorkEstimate(300)
    // Still processing at 31.5 s, done at the poll 5 s later: somewhere in between.
    estimate.observe(100, 31_500, 36_500)
    expect(estimate.msPerLead()).toBe(340)
    // A chunk that was only just late grows the estimate by the step at least.
    estimate.observe(100, 34_000, 34_100)
    expect(estimate.msPerLead()).toBeCloseTo(343.4, 6)
  })

  it('settles where about one first poll in ten is early, against a service that takes 300 ms a lead', () => {
    const estimate = new LeadWorkEstimate(100)
    const actual = 30_000
    let early = 0
    for (let chunk = 0; chunk < 400; chunk++) {
      const first = estimate.firstPollDelayMs(100)
      if (first >= actual) estimate.observe(100, first)
      else {
        if (chunk >= 200) early++
        // Polled again every 5 s until done.
        estimate.observe(100, first, first + 5_000 * Math.ceil((actual - first) / 5_000))
      }
    }
    expect(early).toBeGreaterThan(5)
    expect(early).toBeLessThanOrEqual(30)
    expect(estimate.msPerLead()).toBeGreaterThan(290)
    expect(estimate.msPerLead()).toBeLessThan(330)
  })

  it('takes one step for a window of chunks aimed alike and all found done, not one per chunk', () => {
    const estimate = new LeadWorkEstimate(300)
    const aimed = estimate.firstPollDelayMs(100)
    // 34 chunks sent before any answer, all aimed at 31.5 s and all found done a little after.
    for (let chunk = 0; chunk < 34; chunk++) estimate.observe(100, aimed + 400, aimed + 400, aimed)
    expect(estimate.msPerLead()).toBeCloseTo(311.85, 6)
  })

  it('with a window of 34 chunks in flight, about one first poll in ten is early and the estimate stays near the truth', () => {
    const estimate = new LeadWorkEstimate(300)
    const actual = 30_000
    const window = 34
    // Each chunk's aim is fixed when it is sent; its answer comes back a window of chunks later.
    const inFlight: number[] = []
    let early = 0
    let counted = 0
    for (let chunk = 0; chunk < 2_000; chunk++) {
      inFlight.push(estimate.firstPollDelayMs(100))
      if (inFlight.length < window) continue
      const first = inFlight.shift()!
      if (chunk >= 500) counted++
      if (first >= actual) estimate.observe(100, first, first, first)
      else {
        if (chunk >= 500) early++
        estimate.observe(100, first, first + 5_000 * Math.ceil((actual - first) / 5_000), first)
      }
      if (chunk >= 500) {
        expect(estimate.msPerLead()).toBeGreaterThan(280)
        expect(estimate.msPerLead()).toBeLessThan(345)
      }
    }
    expect(early / counted).toBeGreaterThan(0.03)
    expect(early / counted).toBeLessThan(0.2)
  })

  it('ignores empty chunks', () => {
    const estimate = new LeadWorkEstimate(300)
    estimate.observe(0, 5_000)
    expect(estimate.msPerLead()).toBe(315)
    expect(estimate.firstPollDelayMs(0)).toBe(1)
  })
})
