export interface BackoffOptions {
  baseMs: number
  capMs: number
  random: () => number
}

/** Capped exponential backoff with full jitter: a uniform delay in [0, min(cap, base * 2^attempt)). */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const ceiling = Math.min(options.capMs, options.baseMs * 2 ** attempt)
  return Math.floor(options.random() * ceiling)
}
