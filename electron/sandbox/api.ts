import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ApiRequest, LogEntry, SandboxContext } from './context'
import { failure } from './handlers/common'
import { json, parseJsonObject, readBody, send, text, type Reply } from './http'
import { MESSAGES } from './messages'
import { SlidingWindow } from './rate-limit'
import { matchRoute, type Route } from './routes'

const MINUTE_MS = 60_000

/** What an entry costs beyond its path and body, roughly: its other fields and the array's slot. */
const LOG_ENTRY_OVERHEAD_BYTES = 256

function headerKey(req: IncomingMessage): string | null {
  const header = req.headers['x-api-key']
  return typeof header === 'string' && header !== '' ? header : null
}

function keyOf(route: Route, req: IncomingMessage, body: Record<string, unknown>, query: URLSearchParams) {
  const header = headerKey(req)
  if (header !== null) return header
  if (route.keyInBody && typeof body.api_key === 'string' && body.api_key !== '') return body.api_key
  if (route.keyInQuery) return query.get('api_key') || null
  return null
}

/** Serves `/api/v2`: faults first, then the key, the rate limits and the endpoint itself. */
export class Api {
  private readonly perKey = new SlidingWindow()
  private readonly perIp = new SlidingWindow()

  constructor(private readonly ctx: SandboxContext) {}

  async handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void> {
    const method = req.method ?? 'GET'
    const raw = method === 'POST' ? await readBody(req) : ''
    const { value: body, parsed, malformed } = parseJsonObject(raw)
    const entry: LogEntry = {
      at: new Date().toISOString(),
      method,
      path,
      status: null,
      key: null,
      ...(method === 'POST' ? { body: parsed } : {}),
    }
    const matched = matchRoute(method, path)
    entry.key = matched ? keyOf(matched.route, req, body, query) : headerKey(req)
    // Only a request with a valid key is logged: the log is what a caller's own requests look like,
    // and anyone's unauthenticated posts would otherwise fill it, and memory, with their bodies.
    if (this.ctx.accounts.byKey(entry.key)) {
      this.ctx.requestLog.push(entry, LOG_ENTRY_OVERHEAD_BYTES + path.length + raw.length)
    } else {
      this.ctx.refused.requests += 1
    }
    if (!matched)
      return this.answer(res, entry, json(404, { success: false, message: MESSAGES.routeNotFound }))
    const { route } = matched

    const faults = this.ctx.faults.evaluate(route.endpoint, route.createsWork)
    if (faults.drop) return this.drop(res)
    if (faults.slow) await this.ctx.clock.sleepRaw(faults.slow.delayMs ?? 1000)
    if (faults.status429) {
      entry.fault = 'status429'
      return this.answer(res, entry, text(429, MESSAGES.retryLater))
    }
    if (faults.status500) {
      entry.fault = 'status500'
      return this.answer(res, entry, failure(500, route.errorField, route.serverError))
    }

    const account = this.ctx.accounts.byKey(entry.key)
    const ip = req.socket.remoteAddress ?? 'unknown'
    const { options, clock } = this.ctx
    if (!account) {
      const allowed = this.perIp.take(ip, options.invalidKeyLimit, clock.scaled(options.invalidKeyWindowMs))
      return this.answer(
        res,
        entry,
        allowed ? failure(401, route.errorField, MESSAGES.unauthorized) : text(429, MESSAGES.retryLater),
      )
    }
    if (
      route.rateLimited &&
      !this.perKey.take(entry.key as string, options.rateLimitPerMinute, clock.scaled(MINUTE_MS))
    ) {
      return this.answer(res, entry, text(429, MESSAGES.retryLater))
    }

    // After the key and the rate limit, as every other 400: a body that is not a JSON object is refused
    // whole rather than read as empty, so no endpoint acts on a payload it could not read.
    if (malformed) return this.answer(res, entry, failure(400, route.errorField, route.malformedBody))

    const request: ApiRequest = {
      body,
      params: matched.id === undefined ? {} : { id: matched.id },
      account,
      stuck: faults.stuck !== undefined,
    }
    let reply: Reply
    try {
      reply = await route.handle(this.ctx, request)
    } catch {
      reply = failure(500, route.errorField, route.serverError)
    }
    if (request.requestId !== undefined) entry.requestId = request.requestId
    await this.ctx.persist?.()
    if (faults.dropAfterCreate) return this.drop(res)
    if (faults.status500AfterCreate) reply = failure(500, route.errorField, route.serverError)
    this.answer(res, entry, reply)
  }

  private answer(res: ServerResponse, entry: LogEntry, reply: Reply): void {
    entry.status = reply.status
    send(res, reply)
  }

  /** Ends the connection without a byte of answer, as a network failure would. */
  private drop(res: ServerResponse): void {
    res.socket?.destroy()
  }
}
