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

/** A body that is not a JSON object is treated as an empty one: each endpoint then names what is missing. */
export function parseJsonObject(text: string): { value: Record<string, unknown>; parsed: unknown } {
  if (!text.trim()) return { value: {}, parsed: undefined }
  try {
    const parsed: unknown = JSON.parse(text)
    const value = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : {}
    return { value: value as Record<string, unknown>, parsed }
  } catch {
    return { value: {}, parsed: text }
  }
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
