import type { EngineSettings } from '../settings'

/** A ceiling on chunks in flight, whatever the settings: a job never holds more than this at the service. */
export const maxChunkWindow = 64

/**
 * A chunk is in flight a little longer than its processing time: its first poll aims 5 % past the
 * expected end, and it waits for a rate slot.
 */
const inFlightSlack = 1.1

/**
 * Chunks of one job kept in flight: as many as can be submitted, one per rate slot, during one
 * chunk's processing time (and some slack), plus two. In the middle of a job one chunk costs two
 * slots (its POST and its GET) and half as many would do; but at the start there are only POSTs to
 * send, and at the end the last chunk's processing is hidden only if the chunks before it are still
 * being polled meanwhile: sized to half, the service idles at the start and for the last chunk's
 * processing time at the end. More in flight costs no extra request. The enrichment bench measures
 * the defaults against smaller windows (its `maxChunksInFlight` variants: wall / ideal).
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
  return Math.min(maxChunkWindow, Math.ceil((inFlightSlack * chunkMs) / slotMs) + 2)
}

/**
 * Expected processing time per lead, learnt from the chunks of one job, so that a chunk's first poll
 * finds it done about nine times in ten and not much later than it was done. A first poll that finds
 * the chunk done only bounds the time from above, so the estimate shrinks a little below that chunk's
 * aim; one that finds it still processing proves it too short, so it grows to the middle of what that
 * chunk showed (between its early poll and the poll that found it done). Both steps are taken from
 * what the chunk showed, never compounded on the estimate: a window of chunks is in flight before any
 * answer comes back, and all of them were aimed alike. The steps balance when one first poll in about
 * ten is early, each costing one extra request, whatever the service's spread.
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
   * (else the first window's polls, queued behind its submissions, shrink it, and the next window's
   * first polls all come too early: the enrichment bench's `requests / minimum`).
   */
  observe(leads: number, firstPollMs: number, doneMs = firstPollMs, aimedMs?: number): void {
    if (leads <= 0 || firstPollMs < 0) return
    if (doneMs <= firstPollMs) {
      const late = aimedMs !== undefined && firstPollMs > aimedMs * (1 + lateShare)
      if (late) this.estimate = Math.min(this.estimate, firstPollMs / leads)
      else {
        // The step is taken from the aim this chunk was polled at, not from the estimate now: a window
        // of chunks all aimed alike and all found done is one piece of evidence, not one per chunk
        // (compounded over a window, it shrinks far below the truth before any poll can come back early).
        const shownMs = aimedMs === undefined ? firstPollMs : Math.min(aimedMs, firstPollMs)
        this.estimate = Math.min(this.estimate, (shownMs / leads) * (1 - shrinkStep))
      }
    } else {
      // Likewise from what this chunk showed: a window of early chunks grows it once, not once a chunk.
      this.estimate = Math.max(
        this.estimate,
        (firstPollMs / leads) * (1 + shrinkStep),
        (firstPollMs + doneMs) / 2 / leads,
      )
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
