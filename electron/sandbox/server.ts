import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Api } from './api'
import type { SandboxContext } from './context'
import { handleControl } from './control/server'
import { json, send } from './http'

export const API_PREFIX = '/api/v2'
export const CONTROL_PREFIX = '/__sandbox'

export function createSandboxServer(ctx: SandboxContext): Server {
  const api = new Api(ctx)
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const path = url.pathname
    const work = path.startsWith(`${API_PREFIX}/`)
      ? api.handle(req, res, path.slice(API_PREFIX.length), url.searchParams)
      : path.startsWith(`${CONTROL_PREFIX}/`)
        ? handleControl(ctx, req, res, path.slice(CONTROL_PREFIX.length))
        : Promise.resolve(send(res, json(404, { success: false, message: 'Not found.' })))
    work.catch(() => send(res, json(500, { success: false, error: 'An error occured' })))
  })
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
