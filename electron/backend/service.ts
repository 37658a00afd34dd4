import { createServiceClient, type ServiceClient } from '../engine/client/client'
import { resolveSettings, scaleDurations } from '../engine/settings'
import { isServiceError } from '../engine/client/errors'
import { errorCodes, fail, ok, type ErrorCode, type Result } from '../shared/result'
import type { Connection, Endpoint } from './connection'
import { defaultSettings, type PersistedSettings } from './host'

/** One client per endpoint in effect, rebuilt when the settings change where calls go. */
export class ServiceAccess {
  private cached: { endpoint: Endpoint; client: ServiceClient } | null = null

  constructor(
    private readonly connection: Connection,
    /** The sandbox runs time-scaled; the client's polling and back-off follow the same clock. */
    private readonly sandboxTimeScale: number,
    /** The user's settings, read when a client is made (the plan's rate limit among them). */
    private readonly settings: () => Pick<PersistedSettings, 'rateLimitPerMinute'> = () => defaultSettings,
  ) {
    connection.onInvalidate(() => {
      this.cached = null
    })
  }

  async client(): Promise<Result<{ endpoint: Endpoint; client: ServiceClient }>> {
    if (this.cached) return ok(this.cached)
    const endpoint = await this.connection.endpoint()
    if (!endpoint.ok) return endpoint
    const chosen = resolveSettings({ rateLimitPerMinute: this.settings().rateLimitPerMinute })
    this.cached = {
      endpoint: endpoint.data,
      client: createServiceClient({
        baseUrl: endpoint.data.baseUrl,
        apiKey: endpoint.data.apiKey,
        settings: endpoint.data.mode === 'sandbox' ? scaleDurations(chosen, this.sandboxTimeScale) : chosen,
      }),
    }
    return ok(this.cached)
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
}

function asErrorCode(code: string): ErrorCode {
  return (errorCodes as readonly string[]).includes(code) ? (code as ErrorCode) : 'internal'
}
