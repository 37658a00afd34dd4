import { describe, expect, it } from 'vitest'
import type { Clock } from '../../../../../electron/engine/client/clock'
import { ServiceError } from '../../../../../electron/engine/client/errors'
import type { AsyncStatus, PollAnswer } from '../../../../../electron/engine/jobs/poller'
import { pollUntilSettled } from '../../../../../electron/engine/jobs/poller'

const settings = {
  pollInitialDelayMs: 3_000,
  pollIntervalMs: 5_000,
  pollMaxIntervalMs: 20_000,
  pollOnHoldIntervalMs: 60_000,
  pollTimeoutMs: 300_000,
}

/** Virtual time; `script` answers each poll in turn (the last one repeats). */
function scripted(script: (AsyncStatus | ServiceError)[]) {
  const clock: Clock & { t: number } = {
    t: 0,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.t += ms
    },
  }
  const polledAt: number[] = []
  const get = async (): Promise<PollAnswer<string>> => {
    const step = script[Math.min(polledAt.length, script.length - 1)]!
    polledAt.push(clock.t)
    if (step instanceof ServiceError) throw step
    return { status: step, creditsLeft: 10, value: step }
  }
  const poll = (holdIsFinal = false, firstDelayMs?: number) =>
    pollUntilSettled({
      firstDelayMs,
      requestId: 'req-1',
      get,
      settings,
      clock,
      random: () => 0.5,
      signal: new AbortController().signal,
      holdIsFinal,
    })
  return { clock, polledAt, poll }
}

describe('pollUntilSettled', () => {
  it('polls first after the initial delay, then at growing intervals up to the cap', async () => {
    const run = scripted([
      'processing',
      'processing',
      'processing',
      'processing',
      'processing',
      'processing',
      'terminated',
    ])
    const outcome = await run.poll()
    expect(outcome.kind).toBe('terminated')
    expect(run.polledAt).toEqual([3_000, 8_000, 15_500, 26_750, 43_625, 63_625, 83_625])
  })

  it('polls first when the work should be done, then at the published interval backing off', async () => {
    const run = scripted(['processing', 'processing', 'processing', 'terminated'])
    const outcome = await run.poll(false, 30_000)
    expect(outcome.kind).toBe('terminated')
    expect(run.polledAt).toEqual([30_000, 35_000, 42_500, 53_750])
  })

  it('counts the time-out from submission, the long first wait included', async () => {
    const run = scripted(['processing'])
    const outcome = await run.poll(false, 200_000)
    expect(outcome.kind === 'timed_out' && outcome.elapsedMs).toBe(300_000)
    expect(run.polledAt.slice(0, 3)).toEqual([200_000, 205_000, 212_500])
    expect(run.polledAt.at(-1)).toBe(300_000)
  })

  it('never waits past the time-out for the first poll', async () => {
    const run = scripted(['terminated'])
    expect((await run.poll(false, 900_000)).kind).toBe('terminated')
    expect(run.polledAt).toEqual([300_000])
  })

  it('gives up after the time-out while processing, naming how long it waited', async () => {
    const run = scripted(['processing'])
    const outcome = await run.poll()
    expect(outcome).toMatchObject({ kind: 'timed_out' })
    expect(outcome.kind === 'timed_out' && outcome.elapsedMs).toBeGreaterThanOrEqual(300_000)
    expect(outcome.kind === 'timed_out' && outcome.lastError).toBeUndefined()
  })

  it('does not count time on hold against the time-out, and polls slowly meanwhile', async () => {
    const holds = Array.from<AsyncStatus>({ length: 10 }).fill('on_hold')
    const run = scripted(['processing', ...holds, 'processing', 'terminated'])
    const outcome = await run.poll()
    expect(outcome.kind).toBe('terminated')
    expect(run.polledAt[2]! - run.polledAt[1]!).toBe(60_000)
    expect(run.clock.t).toBeGreaterThan(600_000)
  })

  it('ends at the first on_hold when it is final (company search)', async () => {
    const run = scripted(['processing', 'on_hold'])
    expect((await run.poll(true)).kind).toBe('held_final')
  })

  it('keeps polling through passing errors, reports a lost request, and rethrows auth', async () => {
    const server = new ServiceError({ code: 'server', message: 'HTTP 500' })
    expect((await scripted([server, server, 'terminated']).poll()).kind).toBe('terminated')
    const flaky = await scripted([server]).poll()
    expect(flaky.kind === 'timed_out' && flaky.lastError).toBe(server)
    const lost = new ServiceError({ code: 'unknown_request', message: 'Unvalid request_id.' })
    expect(await scripted([lost]).poll()).toEqual({ kind: 'lost', error: lost })
    const auth = new ServiceError({ code: 'auth', message: 'no' })
    await expect(scripted([auth]).poll()).rejects.toBe(auth)
  })
})
