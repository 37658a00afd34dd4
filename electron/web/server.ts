import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createReadStream, statSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, normalize, sep } from 'node:path'
import { WebSocketServer, type WebSocket } from 'ws'
import type { Backend } from '../backend'
import { dispatch } from '../backend/dispatch'
import type { Emit } from '../shared/contract'
import { contentSecurityPolicy } from '../shared/csp'
import { contentTypeOf } from '../shared/content-types'
import { jsonDepthExceeds } from '../shared/json-depth'
import { fail } from '../shared/result'

export interface WebHostOptions {
  /** 0 picks any free port. */
  port: number
  /** The built renderer (`out/renderer`). */
  rendererDir: string
  /** Builds the backend once the host can carry its events. */
  createBackend: (emit: Emit) => Backend
  token?: string
}

export interface WebHost {
  /** The address to open, with the token that admits the browser. */
  url: string
  origin: string
  token: string
  close(): Promise<void>
}

/**
 * Serves the renderer and carries the contract over a WebSocket, on 127.0.0.1 only. A browser is
 * admitted by the random token of this run (then remembered in an HttpOnly cookie); the WebSocket
 * also demands our exact Origin and Host, so neither another site nor a rebound DNS name can drive it.
 */
export async function startWebHost(options: WebHostOptions): Promise<WebHost> {
  const token = options.token ?? randomBytes(24).toString('base64url')
  const sockets = new Set<WebSocket>()
  const emit: Emit = (event, payload) => {
    const frame = JSON.stringify({ event, payload })
    for (const socket of sockets) socket.send(frame)
  }
  const backend = options.createBackend(emit)
  void backend.start().catch((error: unknown) => console.error('[backend] could not resume jobs', error))

  const server = createServer()
  // A peer may reset its connection at any moment; that ends its socket, never the host.
  server.on('clientError', (_error, socket) => socket.destroy())
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port, '127.0.0.1', () => resolve())
  })
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  const allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`])
  const allowedOrigins = new Set([origin, `http://localhost:${port}`])
  const cookieName = `leadkeeper_${port}`

  const hasToken = (request: IncomingMessage): boolean => {
    const url = new URL(request.url ?? '/', origin)
    return (
      sameSecret(url.searchParams.get('token'), token) || sameSecret(readCookie(request, cookieName), token)
    )
  }

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!allowedHosts.has(request.headers.host ?? '')) return refuse(response, 421, 'Unknown host.')
    if (!hasToken(request)) {
      return refuse(response, 401, 'Open the address printed by `npm run web`: it carries the access token.')
    }
    const url = new URL(request.url ?? '/', origin)
    if (url.searchParams.has('token')) {
      // Trade the token in the address bar for a cookie, so it leaves neither history nor Referer.
      response.writeHead(303, {
        'Set-Cookie': `${cookieName}=${token}; HttpOnly; SameSite=Strict; Path=/`,
        Location: '/',
      })
      return response.end()
    }
    serveFile(options.rendererDir, url.pathname, port, response)
  })

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 * 1024 })
  server.on('upgrade', (request, socket, head) => {
    // Once upgraded, the socket is ours alone: Node's HTTP server no longer listens for its errors,
    // and an unheard error (a client resetting after our refusal) would end the process.
    socket.on('error', () => socket.destroy())
    const url = new URL(request.url ?? '/', origin)
    const admitted =
      url.pathname === '/ws' &&
      allowedHosts.has(request.headers.host ?? '') &&
      allowedOrigins.has(request.headers.origin ?? '') &&
      hasToken(request)
    if (!admitted) {
      socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n')
      return
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws)
      ws.on('error', () => ws.terminate())
      ws.on('close', () => sockets.delete(ws))
      ws.on('message', (data) =>
        answer(ws, backend, String(data)).catch((error: unknown) =>
          console.error('[web] message failed', error),
        ),
      )
    })
  })

  return {
    url: `${origin}/?token=${token}`,
    origin,
    token,
    close: async () => {
      for (const socket of sockets) socket.terminate()
      wss.close()
      await backend.close()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

async function answer(ws: WebSocket, backend: Backend, text: string): Promise<void> {
  let message: { id?: unknown; channel?: unknown; input?: unknown }
  // Refused as text, before a value nested without bound is built at all (`json-depth.ts`).
  if (jsonDepthExceeds(text)) {
    ws.send(JSON.stringify({ id: null, result: fail('invalid_input', 'The message is nested too deeply.') }))
    return
  }
  try {
    message = JSON.parse(text) as typeof message
  } catch {
    ws.send(JSON.stringify({ id: null, result: fail('invalid_input', 'The message is not JSON.') }))
    return
  }
  const result = await dispatch(backend.handlers, message.channel, message.input)
  ws.send(JSON.stringify({ id: message.id ?? null, result }))
}

function serveFile(rootDir: string, pathname: string, port: number, response: ServerResponse): void {
  let decoded: string
  try {
    decoded = decodeURIComponent(pathname)
  } catch {
    return refuse(response, 400, 'Bad address.')
  }
  const relative = normalize(decoded).replace(/^([/\\])+/, '')
  let file = join(rootDir, relative)
  if (!file.startsWith(rootDir + sep) && file !== rootDir) return refuse(response, 404, 'Not found.')
  if (!isFile(file)) file = join(rootDir, 'index.html')
  if (!isFile(file)) return refuse(response, 503, 'The app is not built yet: run `npm run build` first.')
  const isIndex = file.endsWith('index.html')
  response.writeHead(200, {
    'Content-Type': contentTypeOf(file),
    'Content-Security-Policy': contentSecurityPolicy({
      connect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`],
      remoteImages: true,
    }),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    // Cross-origin isolated: the page runs in the user's own browser beside other sites, none of
    // whose windows may keep a hold on it; its clock reads to microseconds, not a tenth of a
    // millisecond. Images of other sites (company logos) still load, without credentials.
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Embedder-Policy': 'credentialless',
    'Cache-Control': isIndex ? 'no-store' : 'public, max-age=31536000, immutable',
  })
  createReadStream(file).pipe(response)
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

function refuse(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' })
  response.end(message)
}

function readCookie(request: IncomingMessage, name: string): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=')
    if (key === name) return value.join('=')
  }
  return null
}

function sameSecret(candidate: string | null, secret: string): boolean {
  if (candidate === null) return false
  const a = Buffer.from(candidate)
  const b = Buffer.from(secret)
  return a.length === b.length && timingSafeEqual(a, b)
}
