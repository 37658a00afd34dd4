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

export async function sendOnce(baseUrl: string, apiKey: string, request: HttpRequest): Promise<HttpOutcome> {
  const timeout = AbortSignal.timeout(request.timeoutMs)
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout
  let response: Response
  let raw: string
  try {
    response = await fetch(baseUrl.replace(/\/+$/, '') + request.path, {
      method: request.method,
      headers: {
        'X-API-Key': apiKey,
        Accept: 'application/json',
        ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal,
    })
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
