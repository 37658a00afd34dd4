import type { EngineSettings } from '../settings'

/** More chunks in flight than this only add polls: the rate limit is the bottleneck well before. */
export const maxChunkWindow = 40

/**
 * A chunk is in flight a little longer than its processing time: its first poll aims past the
 * expected end, and waits for a rate slot. Measured (bench, 10,000 rows): a window sized to the bare
 * processing time left the service idle for a third of the run; a quarter more closes most of it.
 */
const inFlightSlack = 1.25

/**
 * Chunks of one job kept in flight: enough that the rate limit, not the service's processing time,
 * bounds throughput. A chunk costs two requests (POST and, at best, one GET), so one rate slot pair
 * per chunk, for its processing time and some slack; two more absorb polls that come back
 * `processing`. More chunks in flight cost no extra request.
 */
export function chunkWindow(
  settings: Pick<
    EngineSettings,
    'maxChunksInFlight' | 'chunkSize' | 'pollLeadWorkMs' | 'rateWindowMs' | 'rateLimitPerMinute'
  >,
): number {
  if (settings.maxChunksInFlight !== undefined) return Math.max(1, Math.floor(settings.maxChunksInFlight))
  const chunkMs = settings.chunkSize * settings.pollLeadWorkMs
  const slotMs = settings.rateWindowMs / Math.max(1, settings.rateLimitPerMinute)
  return Math.min(maxChunkWindow, Math.ceil((inFlightSlack * chunkMs) / (2 * slotMs)) + 2)
}

/**
 * Expected processing time per lead, learnt from the chunks of one job, so that a chunk's first poll
 * finds it done about nine times in ten and not much later than it was done. A first poll that finds
 * the chunk done only bounds the time from above, so the estimate shrinks a little after each; one
 * that finds it still processing proves it too short, so it grows to the middle of what that chunk
 * showed (between its early poll and the poll that found it done). The two steps balance when one
 * first poll in about ten is early, each costing one extra request, whatever the service's spread.
 */
export class LeadWorkEstimate {
  private estimate: number

  /**
   * Until a chunk is observed the estimate is the default plus a margin: every chunk of the first
   * window is sent before any answer can correct it, and a guess that is right to the millisecond
   * would find about half of them still processing (a second poll each, and its delay).
   */
  constructor(defaultMsPerLead: number) {
    this.estimate = defaultMsPerLead * (1 + startMargin)
  }

  /**
   * One chunk of `leads` leads: `firstPollMs` after its submission the first poll answered, finding it
   * done when `doneMs` equals it, else a later poll found it done `doneMs` after the submission.
   * `aimedMs` is when that first poll was meant to go: one that waited well past it for a rate slot
   * and found the chunk done says nothing about an earlier poll, so it does not shrink the estimate
   * (measured: the first window's polls, queued behind its submissions, shrank it by a quarter, and
   * the next window's first polls all came too early).
   */
  observe(leads: number, firstPollMs: number, doneMs = firstPollMs, aimedMs?: number): void {
    if (leads <= 0 || firstPollMs < 0) return
    if (doneMs <= firstPollMs) {
      const late = aimedMs !== undefined && firstPollMs > aimedMs * (1 + lateShare)
      this.estimate = Math.min(this.estimate, firstPollMs / leads) * (late ? 1 : 1 - shrinkStep)
    } else {
      this.estimate = Math.max(this.estimate * (1 + shrinkStep), (firstPollMs + doneMs) / 2 / leads)
    }
  }

  msPerLead(): number {
    return this.estimate
  }

  /** Delay from submission to the first poll of a chunk of `leads` leads. */
  firstPollDelayMs(leads: number): number {
    return Math.max(1, Math.round(leads * this.estimate))
  }
}

/** With the growth to the middle of an early chunk (typically 5–10 %), about one early first poll in ten. */
const shrinkStep = 0.01
const startMargin = 0.05
/** A first poll answered more than this share past its aim waited for a rate slot. */
const lateShare = 0.1
