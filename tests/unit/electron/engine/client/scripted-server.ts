import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Seen {
  method: string
  path: string
  headers: IncomingMessage['headers']
  body: unknown
}

export type Reply =
  { status: number; body?: unknown; text?: string } | 'drop' | { delayMs: number; then: Reply }

/**
 * A real HTTP server on 127.0.0.1 answering with scripted replies, for answers the sandbox never
 * gives (rows out of order, missing fields, both `error` and `message`).
 */
export async function scriptedServer(script: (seen: Seen, index: number) => Reply) {
  const seen: Seen[] = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8')
      const entry = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      }
      seen.push(entry)
      const answer = (reply: Reply): void => {
        if (reply === 'drop') return void req.socket.destroy()
        if ('delayMs' in reply) return void setTimeout(() => answer(reply.then), reply.delayMs)
        res.writeHead(reply.status, {
          'Content-Type': reply.text !== undefined ? 'text/plain' : 'application/json',
        })
        res.end(reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)))
      }
      answer(script(entry, seen.length - 1))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/api/v2`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
