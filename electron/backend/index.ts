import type { Handlers } from '../shared/contract'
import { ok } from '../shared/result'
import { createAccountHandlers } from './account'
import { Connection, type SandboxStarter } from './connection'
import type { BackendHost } from './host'
import { ServiceAccess } from './service'
import { createSettingsHandlers } from './settings'

export interface Backend {
  handlers: Handlers
  close(): Promise<void>
}

/**
 * The host-agnostic backend: the same handler table serves Electron's IPC and the web host's
 * WebSocket. Each feature contributes its channels; the `Handlers` type makes a missing one a
 * compile error.
 */
export function createBackend(host: BackendHost, options: { startSandbox: SandboxStarter }): Backend {
  const connection = new Connection(host, options.startSandbox)
  const service = new ServiceAccess(connection)
  const handlers: Handlers = {
    'app/info': async () => ok({ version: host.version, host: host.kind, platform: host.platform }),
    ...createSettingsHandlers(host, connection),
    ...createAccountHandlers(host, service),
  }
  return { handlers, close: () => connection.close() }
}
