/**
 * Every value the interface leaves "not shown" lives here as a default (see known-defaults.md),
 * so callers can override any of them instead of finding constants buried in the code.
 */
export interface EngineSettings {
  /** Ceiling of the rate governor, requests per minute per key (entry plans publish 100). */
  rateLimitPerMinute: number
  /** Floor the governor never drops below after repeated 429s. */
  rateLimitFloorPerMinute: number
  /** Length of the service's rate-limit minute; shortened only under a time-scaled sandbox. */
  rateWindowMs: number
  /** Per-request HTTP time-out. */
  requestTimeoutMs: number
  /** Attempt budget of a retryable request (GET, or POST answered 429). */
  maxAttempts: number
  retryBaseDelayMs: number
  retryMaxDelayMs: number
  /**
   * Delay before the first poll of a search, and of an enrichment chunk sent by an earlier run
   * (its processing time is unknown). A chunk sent by this run is first polled when it should be done.
   */
  pollInitialDelayMs: number
  /**
   * Expected processing time of one lead of an enrichment chunk until chunks of the job have
   * finished and their observed time replaces it. Sizes the first poll and the in-flight window.
   */
  pollLeadWorkMs: number
  /** Published recipe: 5 s between polls. */
  pollIntervalMs: number
  /** Cap of the backed-off poll interval. */
  pollMaxIntervalMs: number
  /** Poll interval while a request is `on_hold` (waiting for a top-up). */
  pollOnHoldIntervalMs: number
  /** Overall time-out of one asynchronous request while it is processing (published: 300 s). */
  pollTimeoutMs: number
  /** Leads per `POST /async` (service maximum 100). */
  chunkSize: number
  /**
   * How many chunks of one job may be in flight at once. Unset: sized from the rate limit and the
   * expected processing time of a chunk (see `chunkWindow`).
   */
  maxChunksInFlight?: number
  prices: {
    email: number
    phone: number
    leadProfile: number
    /** Price of one company search result. Not published: 1 is assumed so that caps and estimates err on the safe side. */
    companySearchResult: number
  }
  /** Email statuses a row may carry; anything else is reported as unknown. */
  emailStatuses: readonly string[]
  /** Progress events per second per job, at most. */
  progressEventsPerSecond: number
}

export const defaultSettings: EngineSettings = {
  rateLimitPerMinute: 100,
  rateLimitFloorPerMinute: 5,
  rateWindowMs: 60_000,
  requestTimeoutMs: 30_000,
  maxAttempts: 6,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 30_000,
  pollInitialDelayMs: 3_000,
  pollLeadWorkMs: 300,
  pollIntervalMs: 5_000,
  pollMaxIntervalMs: 30_000,
  pollOnHoldIntervalMs: 60_000,
  pollTimeoutMs: 300_000,
  chunkSize: 100,
  prices: { email: 1, phone: 10, leadProfile: 0.1, companySearchResult: 1 },
  emailStatuses: [
    'deliverable',
    'catch_all',
    'catch_all_safe',
    'catch_all_not_safe',
    'undeliverable',
    'not_found',
    'valid',
  ],
  progressEventsPerSecond: 10,
}

export type SettingsOverrides = Partial<Omit<EngineSettings, 'prices'>> & {
  prices?: Partial<EngineSettings['prices']>
}

export function resolveSettings(overrides: SettingsOverrides = {}): EngineSettings {
  return {
    ...defaultSettings,
    ...overrides,
    prices: { ...defaultSettings.prices, ...overrides.prices },
  }
}

/**
 * Multiplies the service-side durations by `factor` (the sandbox's time scale). The HTTP time-out
 * is left alone: it guards against the local network and machine load, which do not scale.
 */
export function scaleDurations(settings: EngineSettings, factor: number): EngineSettings {
  const scale = (ms: number): number => Math.max(1, Math.round(ms * factor))
  return {
    ...settings,
    rateWindowMs: scale(settings.rateWindowMs),
    retryBaseDelayMs: scale(settings.retryBaseDelayMs),
    retryMaxDelayMs: scale(settings.retryMaxDelayMs),
    pollInitialDelayMs: scale(settings.pollInitialDelayMs),
    pollLeadWorkMs: scale(settings.pollLeadWorkMs),
    pollIntervalMs: scale(settings.pollIntervalMs),
    pollMaxIntervalMs: scale(settings.pollMaxIntervalMs),
    pollOnHoldIntervalMs: scale(settings.pollOnHoldIntervalMs),
    pollTimeoutMs: scale(settings.pollTimeoutMs),
  }
}
