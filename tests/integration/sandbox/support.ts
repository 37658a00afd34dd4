import { startSandbox, type Sandbox, type SandboxOptions } from '../../../electron/sandbox'

/** Fast clocks and generous limits, so only the tests about limits meet them. */
export function startTestSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ timeScale: 0.01, rateLimitPerMinute: 100_000, invalidKeyLimit: 10_000, ...options })
}

export interface ApiResponse {
  status: number
  headers: Headers
  text: string
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
}

export interface CallOptions {
  key?: string | null
  body?: unknown
  /** Sent as is instead of `body`, for bodies that are not JSON. */
  rawBody?: string
  headers?: Record<string, string>
}

export async function call(sandbox: Sandbox, method: string, path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { ...options.headers }
  if (options.key) headers['X-API-Key'] = options.key
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body))
  if (payload !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, body: payload })
  const text = await response.text()
  let body: unknown = text
  try {
    body = JSON.parse(text)
  } catch {
    // plain-text answers (429) stay text
  }
  return { status: response.status, headers: response.headers, text, body } as ApiResponse
}

/** Polls until `done` holds; the time-out only guards against a hang, it is not a speed assertion. */
export async function pollUntil(
  read: () => Promise<ApiResponse>,
  done: (response: ApiResponse) => boolean,
  timeoutMs = 20_000,
): Promise<ApiResponse> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const response = await read()
    if (done(response)) return response
    if (Date.now() > deadline)
      throw new Error(`gave up polling; last answer ${response.status} ${response.text}`)
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
}

export const byStatus =
  (...statuses: string[]) =>
  (response: ApiResponse) =>
    statuses.includes(response.body?.status)

export function leads(count: number, prefix = 'lead') {
  return Array.from({ length: count }, (_, i) => ({
    first_name: `${prefix}first${i}`,
    last_name: `Surname${i}`,
    company_domain: `company${i}.com`,
    custom_fields: { row: `${prefix}-${i}` },
  }))
}
