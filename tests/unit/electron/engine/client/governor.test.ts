import { describe, expect, it } from 'vitest'
import type { Clock } from '../../../../../electron/engine/client/clock'
import { ServiceError } from '../../../../../electron/engine/client/errors'
import { governorFor, RateGovernor } from '../../../../../electron/engine/client/governor'

/** Virtual time: sleeping advances the clock at once, so pacing is observable without waiting. */
function manualClock(): Clock & { t: number } {
  const clock = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms
    },
  }
  return clock
}

async function startTimes(governor: RateGovernor, clock: { t: number }, count: number): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    await governor.acquire()
    times.push(clock.t)
  }
  return times
}

describe('RateGovernor', () => {
  it('paces requests evenly at the ceiling', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    const times = await startTimes(governor, clock, 5)
    expect(times).toEqual([0, 600, 1200, 1800, 2400])
  })

  it('never lets more than the ceiling start within one window', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 10, windowMs: 1000, clock })
    const times = await startTimes(governor, clock, 35)
    for (const start of times) {
      expect(times.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(10)
    }
  })

  it('halves the rate on a 429 and pauses one new interval', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    await governor.acquire()
    governor.onRateLimited()
    expect(governor.rate).toBe(50)
    await governor.acquire()
    expect(clock.t).toBe(1200)
    governor.onRateLimited()
    governor.onRateLimited()
    expect(governor.rate).toBe(12.5)
  })

  it('halves once for a round of 429s from requests sent before the decrease', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    const inFlight = [await governor.acquire(), await governor.acquire(), await governor.acquire()]
    for (const ticket of inFlight) governor.onRateLimited(ticket)
    expect(governor.rate).toBe(50)
    governor.onRateLimited(await governor.acquire())
    expect(governor.rate).toBe(25)
  })

  it('creeps back up additively after successes, capped at the ceiling', () => {
    const governor = new RateGovernor({
      ceiling: 100,
      windowMs: 60_000,
      clock: manualClock(),
      increasePerSuccess: 2,
    })
    governor.onRateLimited()
    for (let i = 0; i < 10; i++) governor.onSuccess()
    expect(governor.rate).toBe(70)
    for (let i = 0; i < 100; i++) governor.onSuccess()
    expect(governor.rate).toBe(100)
  })

  it('does not fall below the floor', () => {
    const governor = new RateGovernor({ ceiling: 100, floor: 20, clock: manualClock() })
    for (let i = 0; i < 10; i++) governor.onRateLimited()
    expect(governor.rate).toBe(20)
  })

  it('fails fast with the remembered auth error after a 401', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, clock })
    const error = new ServiceError({ code: 'auth', message: 'Your are not authorized.' })
    governor.onUnauthorized(error)
    await expect(governor.acquire()).rejects.toBe(error)
    expect(clock.t).toBe(0)
    governor.resetAuth()
    await expect(governor.acquire()).resolves.toBeTypeOf('number')
  })

  it('follows a new ceiling at once: a lower one clamps, a higher one is reached unless 429s held it down', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    governor.setCeiling(200)
    expect(governor.rate).toBe(200)
    expect(await startTimes(governor, clock, 3)).toEqual([0, 300, 600])
    governor.setCeiling(50)
    expect(governor.rate).toBe(50)
    governor.onRateLimited()
    expect(governor.rate).toBe(25)
    governor.setCeiling(400)
    expect(governor.rate).toBe(25)
    expect(governor.ceiling).toBe(400)
  })
})

describe('governorFor', () => {
  it('gives every client of a key the same governor, with the latest ceiling', () => {
    const first = governorFor('http://x.test/api/v2', 'key-ceiling', { ceiling: 100 })
    first.onRateLimited()
    const again = governorFor('http://x.test/api/v2', 'key-ceiling', { ceiling: 200 })
    expect(again).toBe(first)
    expect(again.ceiling).toBe(200)
    // What it learnt stays: the rate is still held below the new ceiling.
    expect(again.rate).toBe(50)
    expect(governorFor('http://x.test/api/v2', 'other-key', { ceiling: 100 })).not.toBe(first)
  })
})
