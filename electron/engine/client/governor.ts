import type { Clock } from './clock'
import { systemClock } from './clock'
import { ServiceError } from './errors'

export interface RateGovernorOptions {
  /** Starting rate and ceiling, in requests per window. */
  ceiling: number
  /** The rate never drops below this. */
  floor?: number
  /** Length of the rate-limit window; 60 s for the live service, shorter under a time-scaled sandbox. */
  windowMs?: number
  /** Multiplicative decrease applied on a 429. */
  decreaseFactor?: number
  /** Rate regained per successful request (additive increase). */
  increasePerSuccess?: number
  clock?: Clock
}

/**
 * One governor per API key, shared by every call made with it (jobs and lookups alike), so the
 * whole app stays near the service's per-key limit. Requests are paced evenly at the current rate;
 * a 429 halves the rate (once per round of requests in flight) and pauses one interval, each
 * success creeps it back up (AIMD).
 * After a 401 the key is dead: every later call fails fast instead of feeding the harsher
 * unknown-key throttle.
 */
export class RateGovernor {
  private currentCeiling: number
  private currentFloor: number
  readonly windowMs: number
  private readonly decreaseFactor: number
  private readonly increasePerSuccess: number
  private readonly clock: Clock
  private currentRate: number
  /** Earliest start of the next request; moved by each start and pushed back by a 429. */
  private nextSlot = 0
  /** Callers wait in line, so each one's spacing uses the rate current when its turn comes. */
  private line: Promise<void> = Promise.resolve()
  private tickets = 0
  /** First ticket issued after the last decrease; 429s of older tickets answer the old rate. */
  private decreasedAt = 0
  private authError: ServiceError | undefined

  constructor(options: RateGovernorOptions) {
    this.currentCeiling = options.ceiling
    this.currentFloor = Math.min(options.floor ?? 1, options.ceiling)
    this.windowMs = options.windowMs ?? 60_000
    this.decreaseFactor = options.decreaseFactor ?? 0.5
    this.increasePerSuccess = options.increasePerSuccess ?? 1
    this.clock = options.clock ?? systemClock
    this.currentRate = options.ceiling
  }

  get rate(): number {
    return this.currentRate
  }

  get ceiling(): number {
    return this.currentCeiling
  }

  get floor(): number {
    return this.currentFloor
  }

  /**
   * A new ceiling (the user changed the plan's limit in the settings) takes effect at once: a
   * lower one clamps the rate, a higher one is reached at once unless 429s held the rate below
   * the old ceiling, in which case it climbs there as usual.
   */
  setCeiling(ceiling: number, floor = this.currentFloor): void {
    if (!(ceiling > 0)) return
    const atCeiling = this.currentRate >= this.currentCeiling
    this.currentCeiling = ceiling
    this.currentFloor = Math.min(floor, ceiling)
    this.currentRate = atCeiling ? ceiling : Math.min(this.currentRate, ceiling)
  }

  get interval(): number {
    return this.windowMs / this.currentRate
  }

  /**
   * Waits for this caller's slot and returns its ticket, to hand back to `onRateLimited`.
   * Throws the remembered auth error once the key was refused.
   */
  async acquire(signal?: AbortSignal): Promise<number> {
    this.assertUsable()
    const turn = this.line.then(async () => {
      const wait = this.nextSlot - this.clock.now()
      if (wait > 0) await this.clock.sleep(wait, signal)
      this.nextSlot = this.clock.now() + this.interval
    })
    this.line = turn.catch(() => undefined)
    await turn
    this.assertUsable()
    return ++this.tickets
  }

  onSuccess(): void {
    this.currentRate = Math.min(this.currentCeiling, this.currentRate + this.increasePerSuccess)
  }

  /**
   * Halves the rate once per round: requests already sent at the old rate when it was halved
   * answer 429 together, and counting each of them would collapse the rate to the floor.
   * Without a ticket the 429 always counts.
   */
  onRateLimited(ticket?: number): void {
    if (ticket === undefined || ticket > this.decreasedAt) {
      this.currentRate = Math.max(this.currentFloor, this.currentRate * this.decreaseFactor)
      this.decreasedAt = this.tickets
    }
    this.nextSlot = Math.max(this.nextSlot, this.clock.now() + this.interval)
  }

  onUnauthorized(error: ServiceError): void {
    this.authError = error
  }

  /** Forgets a refused key, e.g. after the user re-activated it. */
  resetAuth(): void {
    this.authError = undefined
  }

  get unauthorized(): boolean {
    return this.authError !== undefined
  }

  assertUsable(): void {
    if (this.authError) throw this.authError
  }
}

const registry = new Map<string, RateGovernor>()

/**
 * The process-wide governor of one key at one base URL, created on first use: jobs, searches and
 * lookups of a key share what it learnt. A later caller's ceiling replaces the earlier one.
 */
export function governorFor(baseUrl: string, apiKey: string, options: RateGovernorOptions): RateGovernor {
  const id = `${baseUrl}\n${apiKey}`
  const governor = registry.get(id)
  if (!governor) {
    const created = new RateGovernor(options)
    registry.set(id, created)
    return created
  }
  if (governor.ceiling !== options.ceiling) governor.setCeiling(options.ceiling, options.floor)
  return governor
}
