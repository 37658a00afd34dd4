/** Sliding-window counter: at most `limit` hits per `windowMs` for each identity. */
export class SlidingWindow {
  private readonly hits = new Map<string, number[]>()

  /** Records a hit and returns true when it is within the limit; refused hits are not recorded. */
  take(identity: string, limit: number, windowMs: number, now = Date.now()): boolean {
    const recent = (this.hits.get(identity) ?? []).filter((at) => now - at < windowMs)
    const allowed = recent.length < limit
    if (allowed) recent.push(now)
    this.hits.set(identity, recent)
    return allowed
  }
}
