import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A service at another origin than the one a key was entered for: it answers as the service would
 * and keeps the key each request carried ('' for none), so a test can say no key reached it.
 */
export async function startElsewhere(): Promise<{
  keysSeen: string[]
  /** Its address as a service address (`…/api/v2`). */
  url: () => string
  close: () => Promise<void>
}> {
  const keysSeen: string[] = []
  const server = createServer((req, res) => {
    keysSeen.push(String(req.headers['x-api-key'] ?? ''))
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify({ success: true, credits_left: 5, email: 'x@elsewhere.example' }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    keysSeen,
    url: () => `http://localhost:${(server.address() as AddressInfo).port}/api/v2`,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}
