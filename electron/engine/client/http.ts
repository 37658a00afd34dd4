import { ServiceError, codeForStatus } from './errors'

export interface HttpRequest {
  method: 'GET' | 'POST'
  path: string
  body?: unknown
  timeoutMs: number
  signal?: AbortSignal
}

/** What one attempt produced: an HTTP answer, or a failure before any answer arrived. */
export type HttpOutcome =
  | { kind: 'answer'; status: number; body: unknown; message: string }
  | {
      kind: 'failure'
      code: 'network' | 'timeout'
      /** False only when the connection was never established, so the request cannot have been received. */
      maybeReceived: boolean
      message: string
      cause: unknown
    }

/** Connection errors that prove the request never reached the server. */
const notSentCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
])

/** Hops of a redirect within the service's own origin; more is a loop. */
const MAX_REDIRECTS = 5
const redirectStatuses = new Set([301, 302, 303, 307, 308])

export async function sendOnce(baseUrl: string, apiKey: string, request: HttpRequest): Promise<HttpOutcome> {
  const timeout = AbortSignal.timeout(request.timeoutMs)
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout
  let url = baseUrl.replace(/\/+$/, '') + request.path
  let response: Response
  let raw: string
  try {
    for (let hop = 0; ; hop++) {
      // Built apart from sending: a request that cannot even be made (a key that is no header value,
      // an address that is no URL) was certainly not sent, and fetch would not say so.
      let prepared: Request
      try {
        prepared = new Request(url, {
          method: request.method,
          headers: {
            'X-API-Key': apiKey,
            Accept: 'application/json',
            ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
          },
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          // The key travels in a header: fetch would carry it along a redirect to any address.
          redirect: 'manual',
          signal,
        })
      } catch (error) {
        return {
          kind: 'failure',
          code: 'network',
          maybeReceived: false,
          message: `the request could not be made (${(error as Error).message})`,
          cause: error,
        }
      }
      response = await fetch(prepared)
      const target = redirectTarget(response, url, request.method)
      if (target === null) break
      if (target.sameOrigin && hop < MAX_REDIRECTS) {
        await response.body?.cancel()
        url = target.url
        continue
      }
      await response.body?.cancel()
      return {
        kind: 'answer',
        status: response.status,
        body: undefined,
        message: target.sameOrigin
          ? `too many redirects (${MAX_REDIRECTS})`
          : target.origin === new URL(url).origin
            ? `the service redirected this ${request.method} with HTTP ${response.status}, which would drop its body; not followed`
            : `the service sent this request on to another address (${target.origin}); it was not followed, so the key was not sent there`,
      }
    }
    raw = await response.text()
  } catch (error) {
    if (request.signal?.aborted) {
      throw new ServiceError({ code: 'cancelled', message: 'The request was cancelled.', cause: error })
    }
    if (timeout.aborted) {
      return {
        kind: 'failure',
        code: 'timeout',
        maybeReceived: true,
        message: `no answer within ${request.timeoutMs} ms`,
        cause: error,
      }
    }
    const code = causeCode(error)
    return {
      kind: 'failure',
      code: 'network',
      maybeReceived: !notSentCodes.has(code ?? ''),
      message: `connection failed${code ? ` (${code})` : ''}`,
      cause: error,
    }
  }
  const body = parseBody(raw)
  return { kind: 'answer', status: response.status, body, message: messageOf(body, raw) }
}

/**
 * Where a redirect points, or null when the answer is no redirect this request may follow. Only a
 * redirect that keeps the method and body (307, 308), or any redirect of a GET, is followed, and only
 * within the service's own origin: scheme, host and port unchanged.
 */
function redirectTarget(
  response: Response,
  from: string,
  method: HttpRequest['method'],
): { url: string; origin: string; sameOrigin: boolean } | null {
  if (!redirectStatuses.has(response.status)) return null
  const location = response.headers.get('location')
  if (location === null) return null
  let target: URL
  try {
    target = new URL(location, from)
  } catch {
    return null
  }
  const keepsMethod = method === 'GET' || response.status === 307 || response.status === 308
  const sameOrigin = keepsMethod && target.origin === new URL(from).origin
  return { url: target.href, origin: target.origin, sameOrigin }
}

function causeCode(error: unknown): string | undefined {
  let current: unknown = error
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === 'string') return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

function parseBody(raw: string): unknown {
  if (raw.trim() === '') return undefined
  try {
    return JSON.parse(raw)
  } catch {
    return raw
  }
}

/** Error text lives in `error` or `message` depending on the endpoint; some bodies hold both. */
export function messageOf(body: unknown, raw = ''): string {
  if (body && typeof body === 'object') {
    const { error, message } = body as { error?: unknown; message?: unknown }
    const parts = [error, message].filter((part): part is string => typeof part === 'string' && part !== '')
    const unique = [...new Set(parts)]
    if (unique.length) return unique.join(' — ')
  }
  return raw.trim().slice(0, 200)
}

export function errorFromAnswer(status: number, message: string, endpoint: string): ServiceError {
  const code = codeForStatus(status, message)
  return new ServiceError({
    code,
    status,
    endpoint,
    message: message || `HTTP ${status} from ${endpoint}`,
  })
}
