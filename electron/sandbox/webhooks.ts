import { appendBounded } from './bounded-log'
import type { Clock } from './clock'

export interface WebhookAttempt {
  at: string
  url: string
  attempt: number
  ok: boolean
  status?: number
  error?: string
}

/** Sends webhook calls: whole-request payloads with retries, per-lead payloads once. */
export class Webhooks {
  readonly attempts: WebhookAttempt[] = []
  private readonly controllers = new Set<AbortController>()

  constructor(
    private readonly clock: Clock,
    private readonly retryDelaysMs: number[],
    private readonly timeoutMs: number,
    private readonly logLimit: number,
  ) {}

  /** Up to 1 + retryDelaysMs.length attempts, spaced by the scaled delays; any 2xx ends it. */
  deliver(url: string, body: unknown): void {
    const attempt = (n: number): void => {
      void this.post(url, body, n).then((ok) => {
        const delay = this.retryDelaysMs[n - 1]
        if (!ok && delay !== undefined) this.clock.after(delay, () => attempt(n + 1))
      })
    }
    attempt(1)
  }

  /** Per-lead pushes are never retried. */
  push(url: string, body: unknown): void {
    void this.post(url, body, 1)
  }

  private async post(url: string, body: unknown, attempt: number): Promise<boolean> {
    if (this.clock.isClosed) return true
    const controller = new AbortController()
    this.controllers.add(controller)
    const timer = setTimeout(() => controller.abort(), this.timeoutMs)
    const record: WebhookAttempt = { at: new Date().toISOString(), url, attempt, ok: false }
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: controller.signal,
      })
      await response.arrayBuffer().catch(() => undefined)
      record.status = response.status
      record.ok = response.status >= 200 && response.status < 300
    } catch (error) {
      record.error = controller.signal.aborted ? 'timeout' : (error as Error).message
    } finally {
      clearTimeout(timer)
      this.controllers.delete(controller)
    }
    if (!this.clock.isClosed) appendBounded(this.attempts, record, this.logLimit)
    return record.ok
  }

  close(): void {
    for (const controller of this.controllers) controller.abort()
    this.controllers.clear()
  }
}
