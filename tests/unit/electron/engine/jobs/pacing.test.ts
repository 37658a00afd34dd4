import { describe, expect, it } from 'vitest'
import { LeadWorkEstimate, chunkWindow, maxChunkWindow } from '../../../../../electron/engine/jobs/pacing'
import { defaultSettings, scaleDurations } from '../../../../../electron/engine/settings'

describe('chunkWindow', () => {
  it('keeps enough chunks in flight for the rate limit to be the bottleneck', () => {
    // 30 s a chunk, a slot every 0.6 s, two requests a chunk: 25, plus 2.
    expect(chunkWindow(defaultSettings)).toBe(27)
  })

  it('does not depend on the time scale', () => {
    expect(chunkWindow(scaleDurations(defaultSettings, 0.01))).toBe(27)
  })

  it('follows the rate limit and the chunk size, within its ceiling', () => {
    expect(chunkWindow({ ...defaultSettings, rateLimitPerMinute: 20 })).toBe(7)
    expect(chunkWindow({ ...defaultSettings, chunkSize: 10 })).toBe(5)
    expect(chunkWindow({ ...defaultSettings, rateLimitPerMinute: 1000 })).toBe(maxChunkWindow)
  })

  it('takes an explicit maxChunksInFlight as is', () => {
    expect(chunkWindow({ ...defaultSettings, maxChunksInFlight: 4 })).toBe(4)
    expect(chunkWindow({ ...defaultSettings, maxChunksInFlight: 80 })).toBe(80)
    expect(chunkWindow({ ...defaultSettings, maxChunksInFlight: 0 })).toBe(1)
  })
})

describe('LeadWorkEstimate', () => {
  it('starts from the default and aims the first poll a little early', () => {
    const estimate = new LeadWorkEstimate(300)
    expect(estimate.msPerLead()).toBe(300)
    expect(estimate.firstPollDelayMs(100)).toBe(27_000)
  })

  it('learns the median observed time per lead', () => {
    const estimate = new LeadWorkEstimate(300)
    estimate.observe(100, 10_000)
    expect(estimate.msPerLead()).toBe(100)
    estimate.observe(50, 50_000)
    estimate.observe(10, 2_000)
    expect(estimate.msPerLead()).toBe(200)
    estimate.observe(100, 25_000)
    expect(estimate.msPerLead()).toBe(225)
    expect(estimate.firstPollDelayMs(40)).toBe(8_100)
  })

  it('shrinks an estimate that was too long when every first poll finds the chunk done', () => {
    const estimate = new LeadWorkEstimate(300)
    for (let chunk = 0; chunk < 5; chunk++) estimate.observe(100, estimate.firstPollDelayMs(100))
    expect(estimate.msPerLead()).toBeLessThan(300 * 0.9 ** 2)
  })

  it('ignores empty chunks', () => {
    const estimate = new LeadWorkEstimate(300)
    estimate.observe(0, 5_000)
    expect(estimate.msPerLead()).toBe(300)
    expect(estimate.firstPollDelayMs(0)).toBe(1)
  })
})
