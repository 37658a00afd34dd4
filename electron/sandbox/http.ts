import type { IncomingMessage, ServerResponse } from 'node:http'

const MAX_BODY_BYTES = 5 * 1024 * 1024

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > MAX_BODY_BYTES) throw new Error('body too large')
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

export interface ParsedBody {
  /** The body's fields; empty when there is no body or it is malformed. */
  value: Record<string, unknown>
  /** What was received: the parsed JSON, the raw text when it is not JSON, undefined when empty. */
  parsed: unknown
  /** True when a body was sent but is not a JSON object: unparseable, or an array, string, number or null. */
  malformed: boolean
}

/** An empty body is no fields at all (each endpoint names what is missing); anything else must be an object. */
export function parseJsonObject(text: string): ParsedBody {
  if (!text.trim()) return { value: {}, parsed: undefined, malformed: false }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { value: {}, parsed: text, malformed: true }
  }
  const isObject = parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
  return { value: isObject ? (parsed as Record<string, unknown>) : {}, parsed, malformed: !isObject }
}

export interface Reply {
  status: number
  /** JSON body, or a string sent as plain text. */
  body: unknown
}

export const json = (status: number, body: unknown): Reply => ({ status, body })
export const text = (status: number, body: string): Reply => ({ status, body })

export function send(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return
  const isText = typeof reply.body === 'string'
  const payload = isText ? (reply.body as string) : JSON.stringify(reply.body)
  res.writeHead(reply.status, {
    'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
  })
  res.end(payload)
}
