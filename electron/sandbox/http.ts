import type { IncomingMessage, ServerResponse } from 'node:http'

/** A hundred leads with generous custom fields fit many times over. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024
/**
 * Deeper than any body of the interface (a lead search's filters are four levels down). Serializing
 * and validating recurse, so a body nested a hundred thousand levels deep would overflow the stack
 * wherever it is next walked: in a handler, a webhook, or the state file's writer.
 */
export const MAX_JSON_DEPTH = 32

export class BodyTooLarge extends Error {
  constructor() {
    super(`the body is larger than ${MAX_BODY_BYTES} bytes`)
  }
}

/** Reads a body of at most `MAX_BODY_BYTES`, refusing a longer one by its announced length or as it arrives. */
export async function readBody(req: IncomingMessage): Promise<string> {
  const announced = Number(req.headers['content-length'] ?? 0)
  if (announced > MAX_BODY_BYTES) throw new BodyTooLarge()
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    const buffer = chunk as Buffer
    size += buffer.length
    if (size > MAX_BODY_BYTES) throw new BodyTooLarge()
    chunks.push(buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

/** Answers 413 to a body past the limit and closes the connection, so the rest is never read. */
export function refuseTooLarge(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) return
  res.shouldKeepAlive = false
  send(res, json(413, { success: false, error: 'Request body too large.' }))
}

/** How deeply arrays and objects nest in a JSON text, counted without parsing; stops past `limit`. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === 0x5c) index++
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > limit) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}

export interface ParsedBody {
  /** The body's fields; empty when there is no body or it is malformed. */
  value: Record<string, unknown>
  /** What was received: the parsed JSON, the raw text when it is not JSON, undefined when empty. */
  parsed: unknown
  /** True when a body was sent but is not a JSON object: unparseable, or an array, string, number or null. */
  malformed: boolean
}

/**
 * An empty body is no fields at all (each endpoint names what is missing); anything else must be an
 * object nested at most `MAX_JSON_DEPTH` deep. A body too deep is not kept, even as text for the log.
 */
export function parseJsonObject(text: string): ParsedBody {
  if (!text.trim()) return { value: {}, parsed: undefined, malformed: false }
  if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return { value: {}, parsed: undefined, malformed: true }
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
