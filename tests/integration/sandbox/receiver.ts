import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Received {
  at: number
  path: string
  contentType: string | undefined
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any
}

/** A webhook target on loopback that answers each call with the next scripted status (or delay). */
export async function startReceiver(
  script: (path: string, attempt: number) => { status: number; delayMs?: number },
) {
  const received: Received[] = []
  const counts = new Map<string, number>()
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const path = req.url ?? '/'
      const attempt = (counts.get(path) ?? 0) + 1
      counts.set(path, attempt)
      received.push({
        at: Date.now(),
        path,
        contentType: req.headers['content-type'],
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      })
      const { status, delayMs } = script(path, attempt)
      const answer = () => {
        if (!res.destroyed) res.writeHead(status).end()
      }
      if (delayMs) setTimeout(answer, delayMs)
      else answer()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    received,
    on: (path: string) => received.filter((call) => call.path === path),
    close: () => {
      server.closeAllConnections()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

export async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
