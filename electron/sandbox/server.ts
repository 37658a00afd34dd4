import { timingSafeEqual } from 'node:crypto'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Api } from './api'
import type { SandboxContext } from './context'
import { handleControl } from './control/server'
import { BodyTooLarge, json, refuseTooLarge, send, type Reply } from './http'
import { MESSAGES } from './messages'

export const API_PREFIX = '/api/v2'
export const CONTROL_PREFIX = '/__sandbox'

/** What an embedded sandbox admits; see `Embedding`. */
export interface Guard {
  /** The demo key of this run: every API request carries it in `X-API-Key`. */
  secret: string
  /** `127.0.0.1:PORT` and `localhost:PORT`, filled once the port is known. */
  hosts: Set<string>
  /** Control routes on (the end-to-end suite only). */
  control: boolean
}

export function createSandboxServer(ctx: SandboxContext, guard: Guard | null = null): Server {
  const api = new Api(ctx)
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const path = url.pathname
    const isApi = path.startsWith(`${API_PREFIX}/`)
    const isControl = path.startsWith(`${CONTROL_PREFIX}/`)
    const refusal = guard ? refuse(guard, req, isApi, isControl) : null
    if (refusal) {
      // Unread, the rest of a refused body would stall a kept-alive connection: close it instead.
      res.shouldKeepAlive = false
      return send(res, refusal)
    }
    const work = isApi
      ? api.handle(req, res, path.slice(API_PREFIX.length), url.searchParams)
      : isControl
        ? handleControl(ctx, req, res, path.slice(CONTROL_PREFIX.length))
        : Promise.resolve(send(res, json(404, { success: false, message: 'Not found.' })))
    work.catch((error: unknown) =>
      error instanceof BodyTooLarge
        ? refuseTooLarge(res)
        : send(res, json(500, { success: false, error: 'An error occured' })),
    )
  })
  // A peer resetting its connection ends that connection, never the process embedding the sandbox.
  server.on('clientError', (_error, socket) => socket.destroy())
  return server
}

/**
 * Why an embedded sandbox turns a request away, before reading its body: another Host (DNS
 * rebinding), any Origin (a web page: the app's own calls never carry one), a control route, or an
 * API request without this run's secret.
 */
function refuse(guard: Guard, req: IncomingMessage, isApi: boolean, isControl: boolean): Reply | null {
  if (!guard.hosts.has(req.headers.host ?? '')) return json(421, { success: false, error: 'Unknown host.' })
  if (req.headers.origin !== undefined) return json(403, { success: false, error: 'Forbidden.' })
  if (isControl) return guard.control ? null : json(404, { success: false, message: 'Not found.' })
  if (isApi && !sameSecret(req.headers['x-api-key'], guard.secret))
    return json(401, { success: false, error: MESSAGES.unauthorized })
  return null
}

function sameSecret(candidate: string | string[] | undefined, secret: string): boolean {
  if (typeof candidate !== 'string') return false
  const a = Buffer.from(candidate)
  const b = Buffer.from(secret)
  return a.length === b.length && timingSafeEqual(a, b)
}

export function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject)
      resolve((server.address() as AddressInfo).port)
    })
  })
}
