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
  /** Multiplicative decrease applied on a 429 (at most once per window). */
  decreaseFactor?: number
  /** Rate regained per successful request above the rate that last worked (additive probing). */
  increasePerSuccess?: number
  /** Share of the way back to the rate that last worked regained per successful request. */
  recoveryPerSuccess?: number
  clock?: Clock
}

/**
 * How much longer than the service's window the governor counts its own requests: a request that
 * left at the very start of our window may reach the service a little later than the one at its end.
 */
const windowMargin = 1.03

/**
 * One governor per API key, shared by every call made with it (jobs, searches and lookups alike),
 * so the whole app stays under the service's per-key limit, counted as the service counts it: at
 * most `rate` requests in any window (a request refused in a burst, below the limit, not among them).
 *
 * - Requests go at an even pace, and a slot nobody used may be caught up later as long as the last
 *   window holds fewer than `rate` requests (a quarter of the interval apart at least).
 * - A 429 cuts the rate by 30 % (the multiplicative decrease of TCP CUBIC), or to the number of
 *   requests the last window held when that is lower (never below half), and pauses one interval,
 *   at most once per window: the 429s that follow within the window answer requests the service
 *   counted before the decrease, and cutting for each of them would collapse the rate for a burst
 *   that is already over; 429s still coming a window later cut it again. Catching up stops for a
 *   window.
 * - Once 429s stop, each success brings the rate a share of the way back to the rate that last
 *   worked, so the limit is regained within a few windows; above it, it probes one request at a time.
 *
 * After a 401 the key is dead: every later call fails fast instead of feeding the harsher
 * unknown-key throttle.
 */
export class RateGovernor {
  private currentCeiling: number
  private currentFloor: number
  readonly windowMs: number
  private readonly decreaseFactor: number
  private readonly increasePerSuccess: number
  private readonly recoveryPerSuccess: number
  private readonly clock: Clock
  private currentRate: number
  /** The rate before the last decrease: where recovery heads. */
  private recoverTo: number
  /**
   * Start times of the most recent requests the service may have counted, oldest first (at most a
   * ceiling of them), and the ticket of each: a request it refused with a 429 leaves the log.
   */
  private starts: number[] = []
  private startTickets: number[] = []
  /** Earliest start of the next request: even spacing, and a 429's pause. */
  private nextSlot = 0
  /** Callers wait in line, so each one's spacing uses the rate current when its turn comes. */
  private line: Promise<void> = Promise.resolve()
  private tickets = 0
  /** The rate the last decrease left: a refusal below it is a burst's, above it the limit's. */
  private cutTo = Infinity
  /** When the rate was last decreased; no other decrease within a window of it. */
  private decreasedAt = -Infinity
  private authError: ServiceError | undefined

  constructor(options: RateGovernorOptions) {
    this.currentCeiling = options.ceiling
    this.currentFloor = Math.min(options.floor ?? 1, options.ceiling)
    this.windowMs = options.windowMs ?? 60_000
    this.decreaseFactor = options.decreaseFactor ?? 0.7
    this.increasePerSuccess = options.increasePerSuccess ?? 1
    this.recoveryPerSuccess = options.recoveryPerSuccess ?? 0.25
    this.clock = options.clock ?? systemClock
    this.currentRate = options.ceiling
    this.recoverTo = options.ceiling
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

  get interval(): number {
    return this.windowMs / this.currentRate
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
    this.recoverTo = Math.min(Math.max(this.recoverTo, this.currentRate), ceiling)
  }

  /**
   * Waits for this caller's slot and returns its ticket, to hand back to `onRateLimited`.
   * Throws the remembered auth error once the key was refused.
   */
  async acquire(signal?: AbortSignal): Promise<number> {
    this.assertUsable()
    const turn = this.line.then(async () => {
      for (;;) {
        const wait = this.earliestStart(this.clock.now()) - this.clock.now()
        if (wait <= 0) break
        await this.clock.sleep(wait, signal)
      }
      const now = this.clock.now()
      const ticket = ++this.tickets
      this.starts.push(now)
      this.startTickets.push(ticket)
      if (this.starts.length > this.currentCeiling) {
        const over = this.starts.length - this.currentCeiling
        this.starts.splice(0, over)
        this.startTickets.splice(0, over)
      }
      const catchingUp = now - this.decreasedAt > this.windowMs
      this.nextSlot = now + (catchingUp ? this.interval / 4 : this.interval)
      return ticket
    })
    this.line = turn.then(
      () => undefined,
      () => undefined,
    )
    const ticket = await turn
    this.assertUsable()
    return ticket
  }

  /** The earliest time the next request may start: its spacing, and room in the last window. */
  private earliestStart(now: number): number {
    const window = this.windowMs * windowMargin
    const allowed = Math.max(1, Math.floor(this.currentRate))
    const recent = this.starts.filter((at) => now - at < window)
    const full = recent.length >= allowed ? recent[recent.length - allowed]! + window : now
    return Math.max(this.nextSlot, full)
  }

  onSuccess(): void {
    if (this.currentRate < this.recoverTo) {
      const back = (this.recoverTo - this.currentRate) * this.recoveryPerSuccess
      this.currentRate = Math.min(this.recoverTo, this.currentRate + Math.max(this.increasePerSuccess, back))
    } else {
      this.currentRate = Math.min(this.currentCeiling, this.currentRate + this.increasePerSuccess)
      this.recoverTo = Math.max(this.recoverTo, this.currentRate)
    }
  }

  /**
   * Cuts the rate at most once per window and pauses one interval; the window, not the round of
   * requests, decides whether a 429 is news. `ticket` (from `acquire`) is the refused request.
   *
   * A refusal while the window held fewer requests than the rate the last cut left is not the
   * window's doing (a burst of the service's own): the refused request leaves the window's log, as
   * the service did not serve it, so that a burst does not fill the window with requests nobody
   * served and hold the next ones back for a window once it ends. A refusal at that rate or above
   * is the limit's: it stays, and holds the window as the service may count it.
   */
  onRateLimited(ticket?: number): void {
    const now = this.clock.now()
    const at = ticket === undefined ? -1 : this.startTickets.lastIndexOf(ticket)
    // Without a ticket, the refused request is the last one logged.
    const refused = at >= 0 ? at : this.starts.length - 1
    const served = this.starts.filter(
      (start, i) => i !== refused && now - start < this.windowMs * windowMargin,
    ).length
    if (now - this.decreasedAt > this.windowMs) {
      // The service refused a request after the ones it served in the last window: when that is
      // fewer than the cut leaves, the limit is likely there (a ceiling set above the plan's), so the
      // rate goes straight to it, never lower than half in one step.
      const cut = this.currentRate * this.decreaseFactor
      const learnt = Math.max(served, this.currentRate / 2)
      this.recoverTo = this.currentRate
      this.currentRate = Math.max(this.currentFloor, Math.min(cut, learnt))
      this.cutTo = this.currentRate
      this.decreasedAt = now
    }
    if (at >= 0 && served < Math.floor(this.cutTo)) {
      this.starts.splice(at, 1)
      this.startTickets.splice(at, 1)
    }
    this.nextSlot = Math.max(this.nextSlot, now + this.interval)
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
