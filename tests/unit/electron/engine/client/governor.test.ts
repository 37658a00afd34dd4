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
  it('starts a quarter interval apart while the window has room, then at the pace the window allows', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 4, windowMs: 1000, clock })
    const times = await startTimes(governor, clock, 6)
    // Four fit in the first window; the fifth waits for the first to leave it (with a 3 % margin).
    expect(times).toEqual([0, 62.5, 125, 187.5, 1030, 1092.5])
  })

  it('never lets more than the ceiling start within one window', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 10, windowMs: 1000, clock })
    const times = await startTimes(governor, clock, 35)
    for (const start of times) {
      expect(times.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(10)
    }
  })

  it('catches up the slots nobody used, within what the window allows', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    await governor.acquire()
    clock.t = 30_000
    const times = await startTimes(governor, clock, 3)
    // Evenly paced, three requests would take two 600 ms intervals; caught up, a quarter of that.
    expect(times).toEqual([30_000, 30_150, 30_300])
  })

  it('cuts the rate by 30 % on a 429 after a full window, pauses one interval, stops catching up', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    await startTimes(governor, clock, 100)
    governor.onRateLimited()
    expect(governor.rate).toBe(70)
    const pausedFrom = clock.t
    const [first, second] = await startTimes(governor, clock, 2)
    expect(first! - pausedFrom).toBeGreaterThanOrEqual(60_000 / 70)
    expect(second! - first!).toBeCloseTo(60_000 / 70)
  })

  it('cuts to what the last window held when the service refused earlier, never below half', async () => {
    const clock = manualClock()
    // A ceiling set above the plan's: the service refuses the 61st request of its window.
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    await startTimes(governor, clock, 61)
    governor.onRateLimited()
    expect(governor.rate).toBe(60)
    const early = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock: manualClock() })
    await early.acquire()
    early.onRateLimited()
    expect(early.rate).toBe(50)
  })

  it('cuts at most once a window: a burst of 429s answers requests counted before the decrease', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    await startTimes(governor, clock, 100)
    for (let i = 0; i < 25; i++) governor.onRateLimited(await governor.acquire())
    expect(governor.rate).toBe(70)
    // Still refused a whole window after the decrease: the limit really is lower.
    clock.t += 61_000
    await startTimes(governor, clock, 70)
    governor.onRateLimited(await governor.acquire())
    expect(governor.rate).toBeCloseTo(49)
  })

  it('leaves a refused request out of its window: a burst of 429s holds nothing back once it ends', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 10, windowMs: 1000, clock })
    await startTimes(governor, clock, 3)
    // Five refused in a row, within a window: the first cuts the rate to half (three served in the
    // window), and each is paced at the lowered rate, never held back by the window the refused ones
    // would have filled.
    const refused: number[] = []
    for (let i = 0; i < 5; i++) {
      governor.onRateLimited(await governor.acquire())
      refused.push(clock.t)
    }
    expect(governor.rate).toBe(5)
    const gaps = refused.slice(1).map((at, i) => at - refused[i]!)
    for (const gap of gaps) expect(gap).toBeCloseTo(200)
    // Counted, the window (three served and two refused) would have held the third refused one back
    // until the first request left it, 1,030 ms after it started.
    expect(refused[2]).toBe(475)
    // The served ones still count: five in the window at most, the three of before among them.
    const next = await startTimes(governor, clock, 2)
    expect(next[0]! - refused[4]!).toBeCloseTo(200)
  })

  it('keeps a refusal at the limit it learnt in its window, as the service may count it', async () => {
    const clock = manualClock()
    // A ceiling of 10 on a plan of 5: the sixth request of the window is refused.
    const governor = new RateGovernor({ ceiling: 10, windowMs: 1000, clock })
    await startTimes(governor, clock, 5)
    governor.onRateLimited(await governor.acquire())
    expect(governor.rate).toBe(5)
    // Five served and the refused one (at 25 ms after the first): the next waits until the second
    // served leaves the window, not the first.
    expect(await startTimes(governor, clock, 1)).toEqual([25 + 1030])
  })

  it('learns the limit from the requests the service served before it refused one', async () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock })
    await startTimes(governor, clock, 60)
    governor.onRateLimited(await governor.acquire())
    expect(governor.rate).toBe(60)
  })

  it('regains the rate that last worked within a few windows of successes, then probes above it', () => {
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock: manualClock() })
    for (let i = 0; i < 5; i++) governor.onSuccess()
    expect(governor.rate).toBe(100)
    governor.onRateLimited()
    expect(governor.rate).toBe(50)
    // A window at the lowered rate holds 50 successes; a dozen bring the rate back near where it was.
    for (let i = 0; i < 12; i++) governor.onSuccess()
    expect(governor.rate).toBeGreaterThan(95)
    for (let i = 0; i < 50; i++) governor.onSuccess()
    expect(governor.rate).toBe(100)
  })

  it('probes one request at a time above the rate that last worked, up to the ceiling', () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, windowMs: 60_000, clock, increasePerSuccess: 2 })
    governor.onRateLimited()
    clock.t = 61_000
    governor.onRateLimited()
    expect(governor.rate).toBe(25)
    // Back to 50 (the rate before the last decrease) in steps, then two a success above it.
    let steps = 0
    for (; governor.rate < 50 && steps < 100; steps++) governor.onSuccess()
    expect(steps).toBeLessThanOrEqual(12)
    expect(governor.rate).toBe(50)
    governor.onSuccess()
    expect(governor.rate).toBe(52)
    for (let i = 0; i < 200; i++) governor.onSuccess()
    expect(governor.rate).toBe(100)
  })

  it('does not fall below the floor', () => {
    const clock = manualClock()
    const governor = new RateGovernor({ ceiling: 100, floor: 20, windowMs: 60_000, clock })
    for (let i = 0; i < 10; i++) {
      governor.onRateLimited()
      clock.t += 61_000
    }
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
    expect(await startTimes(governor, clock, 3)).toEqual([0, 75, 150])
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
