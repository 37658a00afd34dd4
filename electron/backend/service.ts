import { createServiceClient, type ServiceClient } from '../engine/client/client'
import { Reach, type ReachView } from '../engine/client/reach'
import { resolveSettings, scaleDurations, type EngineSettings } from '../engine/settings'
import { isServiceError } from '../engine/client/errors'
import { errorCodes, fail, ok, type ErrorCode, type Result } from '../shared/result'
import type { Connection, Endpoint } from './connection'
import { defaultSettings, type PersistedSettings } from './host'

/**
 * One client per endpoint in effect, rebuilt when the settings change where calls go. Every client
 * reports to one `Reach`, so the header shows whether the service answers whatever asked it last;
 * while it does not, the backend probes the balance (exempt from the rate limit) until it answers.
 */
export class ServiceAccess {
  readonly reach = new Reach()
  private cached: { endpoint: Endpoint; client: ServiceClient } | null = null
  /** Calls a user waits on: Cancel stops their waits between attempts. */
  private readonly waits = new Set<AbortController>()
  private probing: Promise<void> | null = null
  private readonly closed = new AbortController()

  constructor(
    private readonly connection: Connection,
    /** The sandbox runs time-scaled; the client's polling and back-off follow the same clock. */
    private readonly sandboxTimeScale: number,
    /** The user's settings, read when a client is made (the plan's rate limit among them). */
    private readonly settings: () => Pick<PersistedSettings, 'rateLimitPerMinute'> = () => defaultSettings,
  ) {
    connection.onInvalidate(() => {
      this.cached = null
      this.reach.reset()
    })
  }

  async client(): Promise<Result<{ endpoint: Endpoint; client: ServiceClient }>> {
    if (this.cached) return ok(this.cached)
    const endpoint = await this.connection.endpoint()
    if (!endpoint.ok) return endpoint
    this.cached = {
      endpoint: endpoint.data,
      client: createServiceClient({
        baseUrl: endpoint.data.baseUrl,
        apiKey: endpoint.data.apiKey,
        settings: this.engineSettings(endpoint.data),
        reach: this.reach,
      }),
    }
    return ok(this.cached)
  }

  /** The engine's durations for an endpoint: scaled like the sandbox's clock when it is the sandbox. */
  private engineSettings(endpoint: Endpoint): EngineSettings {
    const chosen = resolveSettings({ rateLimitPerMinute: this.settings().rateLimitPerMinute })
    return endpoint.mode === 'sandbox' ? scaleDurations(chosen, this.sandboxTimeScale) : chosen
  }

  /** Runs one call and turns the service's failures into values the renderer can show. */
  async call<T>(work: (client: ServiceClient, endpoint: Endpoint) => Promise<T>): Promise<Result<T>> {
    const access = await this.client()
    if (!access.ok) return access
    try {
      return ok(await work(access.data.client, access.data.endpoint))
    } catch (error) {
      if (isServiceError(error)) return fail(asErrorCode(error.code), error.message)
      throw error
    }
  }

  /** A call the user waits on: `cancelWaits` ends it as `cancelled` while it waits to try again. */
  async waited<T>(
    work: (client: ServiceClient, endpoint: Endpoint, signal: AbortSignal) => Promise<T>,
  ): Promise<Result<T>> {
    const controller = new AbortController()
    this.waits.add(controller)
    try {
      return await this.call((client, endpoint) => work(client, endpoint, controller.signal))
    } finally {
      this.waits.delete(controller)
    }
  }

  cancelWaits(): number {
    const count = this.waits.size
    for (const controller of this.waits) controller.abort()
    this.waits.clear()
    return count
  }

  /**
   * While the service does not answer, `probe` (a balance check, exempt from the rate limit) runs
   * again, after a pause that doubles from a couple of seconds to a third of the longest back-off
   * (10 s against the service), until it answers or the endpoint changes: the header comes back by
   * itself within seconds of the network.
   */
  watch(probe: () => Promise<unknown>): void {
    this.reach.onChange((view) => {
      if (view.state === 'unreachable' && !this.probing && !this.closed.signal.aborted) {
        this.probing = this.probeLoop(probe).finally(() => (this.probing = null))
      }
    })
  }

  private async probeLoop(probe: () => Promise<unknown>): Promise<void> {
    const signal = this.closed.signal
    for (let round = 0; this.reach.view().state === 'unreachable' && !signal.aborted; round++) {
      const access = await this.client()
      if (!access.ok) return
      const { retryBaseDelayMs, retryMaxDelayMs } = access.data.client.settings
      const pause = Math.min(retryMaxDelayMs / 3, 4 * retryBaseDelayMs * 2 ** round)
      this.reach.retrying(pause)
      const waited = await sleep(pause, signal)
      if (!waited || this.reach.view().state !== 'unreachable') return
      await probe().catch(() => undefined)
    }
  }

  view(): ReachView {
    return this.reach.view()
  }

  close(): void {
    this.closed.abort()
    this.cancelWaits()
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve(true)
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      resolve(false)
    }
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

function asErrorCode(code: string): ErrorCode {
  return (errorCodes as readonly string[]).includes(code) ? (code as ErrorCode) : 'internal'
}
