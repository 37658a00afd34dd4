/**
 * What the client knows of its way to the service, learnt from every attempt of every call:
 * - `online`: the last attempt got an HTTP answer (any status but 401);
 * - `unreachable`: the last attempt got none (connection refused, no route, DNS, time-out);
 * - `key_refused`: the service answered 401;
 * - `unknown`: nothing was sent yet.
 * Whether the machine itself is offline is the host's to say (the renderer's `navigator.onLine`).
 */
export type ReachState = 'unknown' | 'online' | 'unreachable' | 'key_refused'

export interface ReachView {
  state: ReachState
  /** Epoch ms since when the state holds. */
  since: number
  /** While unreachable: epoch ms of the next attempt of a call that waits, if one is scheduled. */
  retryAt: number | null
  /** The last failure in the network's or the service's words, for a tooltip or a log. */
  detail: string | null
}

type Listener = (view: ReachView) => void

export class Reach {
  private current: ReachView
  private readonly listeners = new Set<Listener>()

  constructor(private readonly now: () => number = Date.now) {
    this.current = { state: 'unknown', since: now(), retryAt: null, detail: null }
  }

  view(): ReachView {
    return this.current
  }

  /** Called with every change; returns the unsubscribe. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** An attempt got an HTTP answer. */
  answered(status: number, message = ''): void {
    if (status === 401) this.set('key_refused', null, message || 'HTTP 401')
    else this.set('online', null, null)
  }

  /** An attempt got no answer at all. */
  failed(message: string): void {
    this.set('unreachable', this.current.state === 'unreachable' ? this.current.retryAt : null, message)
  }

  /** A call that got no answer tries again in `delayMs`. */
  retrying(delayMs: number): void {
    if (this.current.state !== 'unreachable') return
    this.set('unreachable', this.now() + Math.max(0, delayMs), this.current.detail)
  }

  /** Where calls go changed (another address or key): nothing is known of the new one. */
  reset(): void {
    this.set('unknown', null, null)
  }

  private set(state: ReachState, retryAt: number | null, detail: string | null): void {
    const before = this.current
    if (before.state === state && before.retryAt === retryAt && before.detail === detail) return
    this.current = { state, since: before.state === state ? before.since : this.now(), retryAt, detail }
    for (const listener of this.listeners) listener(this.current)
  }
}
