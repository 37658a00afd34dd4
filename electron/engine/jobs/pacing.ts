import type { EngineSettings } from '../settings'

/** More chunks in flight than this only add polls: the rate limit is the bottleneck well before. */
export const maxChunkWindow = 30

/**
 * Chunks of one job kept in flight: enough that the rate limit, not the service's processing time,
 * bounds throughput. A chunk costs two requests (POST and, at best, one GET), so one rate slot pair
 * per chunk; two more absorb polls that come back `processing`.
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
  return Math.min(maxChunkWindow, Math.ceil(chunkMs / (2 * slotMs)) + 2)
}

/**
 * Expected processing time per lead, learnt from the chunks of one job. An observed time is an
 * upper bound (it ends at the poll that saw the result), so the first poll is aimed a little early:
 * an estimate that is too long shrinks chunk after chunk instead of confirming itself.
 */
export class LeadWorkEstimate {
  private readonly samples: number[] = []

  constructor(private readonly defaultMsPerLead: number) {}

  observe(leads: number, elapsedMs: number): void {
    if (leads > 0 && elapsedMs >= 0) this.samples.push(elapsedMs / leads)
  }

  msPerLead(): number {
    if (this.samples.length === 0) return this.defaultMsPerLead
    const sorted = [...this.samples].sort((a, b) => a - b)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
  }

  /** Delay from submission to the first poll of a chunk of `leads` leads. */
  firstPollDelayMs(leads: number): number {
    return Math.max(1, Math.round(earlyAim * leads * this.msPerLead()))
  }
}

const earlyAim = 0.9
