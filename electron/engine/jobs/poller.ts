import type { Clock } from '../client/clock'
import { ServiceError } from '../client/errors'
import type { EngineSettings } from '../settings'

export type AsyncStatus = 'not_started' | 'processing' | 'on_hold' | 'terminated'

export interface PollAnswer<T> {
  status: AsyncStatus
  creditsLeft?: number
  value: T
}

export type PollOutcome<T> =
  | { kind: 'terminated'; answer: PollAnswer<T> }
  /** Company search: an `on_hold` never resumes, so it ends polling. */
  | { kind: 'held_final'; answer: PollAnswer<T> }
  /** `lastError` is set when the last poll failed rather than answering `processing`. */
  | { kind: 'timed_out'; elapsedMs: number; lastError?: ServiceError }
  /** The service no longer knows the request id. */
  | { kind: 'lost'; error: ServiceError }

export interface PollOptions<T> {
  requestId: string
  get: (requestId: string, signal: AbortSignal) => Promise<PollAnswer<T>>
  settings: Pick<
    EngineSettings,
    'pollInitialDelayMs' | 'pollIntervalMs' | 'pollMaxIntervalMs' | 'pollOnHoldIntervalMs' | 'pollTimeoutMs'
  >
  clock: Clock
  random: () => number
  signal: AbortSignal
  holdIsFinal: boolean
  /**
   * Delay before the first poll, when the caller expects the work to take longer than
   * `pollInitialDelayMs` (an enrichment chunk of many leads). Never beyond the time-out. Not jittered:
   * it is aimed at when the work should be done, and the submissions it follows are already spread
   * out by the rate limit.
   */
  firstDelayMs?: number
  /** Every answer that is not final, so the job can show `on_hold` and track the balance. */
  onAnswer?: (answer: PollAnswer<T>) => void
}

/** ±20 % so that many chunks polled together spread out instead of arriving in lockstep. */
function jittered(ms: number, random: () => number): number {
  return Math.round(ms * (0.8 + 0.4 * random()))
}

/**
 * Polls one asynchronous request: a first poll after the expected processing time (a short delay
 * when it is unknown), then an interval growing by half each time up to a cap. The time-out counts
 * from the start of polling, which is the submission. Time spent `on_hold` (waiting for a top-up, polled slowly) or out
 * of reach (no answer at all) does not count against the time-out, which measures how long the service has been
 * processing.
 * Throws only for authentication failures and cancellation.
 */
export async function pollUntilSettled<T>(options: PollOptions<T>): Promise<PollOutcome<T>> {
  const { settings, clock, random, signal } = options
  let processingSince = clock.now()
  let delay = Math.min(options.firstDelayMs ?? settings.pollInitialDelayMs, settings.pollTimeoutMs)
  let interval = settings.pollIntervalMs
  let wasOnHold = false
  let aimed = options.firstDelayMs !== undefined
  /** When the last poll ended; time until a poll that reached nobody is not the service's. */
  let checkedAt = clock.now()
  for (;;) {
    await clock.sleep(aimed ? delay : jittered(delay, random), signal)
    aimed = false
    let answer: PollAnswer<T>
    try {
      answer = await options.get(options.requestId, signal)
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error
      if (error.code === 'auth' || error.code === 'cancelled') throw error
      if (error.code === 'unknown_request' || error.code === 'not_found') return { kind: 'lost', error }
      // The service out of reach (no answer at all): the request still exists and the time-out measures
      // the service's processing, so that time does not count, and polling goes on until it answers.
      if (error.code === 'network' || error.code === 'timeout') processingSince += clock.now() - checkedAt
      checkedAt = clock.now()
      // 5xx, budget of retries spent: the request still exists, so polling goes on until the time-out.
      const elapsedMs = clock.now() - processingSince
      if (elapsedMs >= settings.pollTimeoutMs) return { kind: 'timed_out', elapsedMs, lastError: error }
      delay = interval
      interval = Math.min(settings.pollMaxIntervalMs, interval * 1.5)
      continue
    }
    checkedAt = clock.now()
    if (answer.status === 'terminated') return { kind: 'terminated', answer }
    if (answer.status === 'on_hold') {
      if (options.holdIsFinal) return { kind: 'held_final', answer }
      options.onAnswer?.(answer)
      wasOnHold = true
      delay = settings.pollOnHoldIntervalMs
      continue
    }
    options.onAnswer?.(answer)
    if (wasOnHold) {
      wasOnHold = false
      processingSince = clock.now()
      interval = settings.pollIntervalMs
    }
    const elapsedMs = clock.now() - processingSince
    if (elapsedMs >= settings.pollTimeoutMs) return { kind: 'timed_out', elapsedMs }
    delay = Math.min(interval, Math.max(1, settings.pollTimeoutMs - elapsedMs))
    interval = Math.min(settings.pollMaxIntervalMs, interval * 1.5)
  }
}
