import type { Handlers } from '../shared/contract'
import { fail, ok } from '../shared/result'
import { createAccountHandlers } from './account'
import { JobsService } from './jobs'
import { createLookupHandlers } from './lookups'
import { Connection, type SandboxStarter } from './connection'
import type { BackendHost } from './host'
import { ServiceAccess } from './service'
import { createSettingsHandlers } from './settings'

export interface Backend {
  handlers: Handlers
  start(): Promise<void>
  close(): Promise<void>
}

/**
 * The host-agnostic backend: the same handler table serves Electron's IPC and the web host's
 * WebSocket. Each feature contributes its channels; the `Handlers` type makes a missing one a
 * compile error.
 */
export interface BackendOptions {
  startSandbox: SandboxStarter
  /** The time scale the sandbox was started with (1 = real time). */
  sandboxTimeScale: number
}

export function createBackend(host: BackendHost, options: BackendOptions): Backend {
  const connection = new Connection(host, options.startSandbox)
  const service = new ServiceAccess(connection, options.sandboxTimeScale, () => host.settings.load())
  const jobs = new JobsService(host, service, host.stateDir)
  const account = createAccountHandlers(host, service)
  const refreshAccount = () => void account['account/get'](undefined)
  const connectionView = () => ({ mode: connection.mode(), ...service.view() })
  service.reach.onChange(() => host.emit('connection/changed', connectionView()))
  service.watch(() => account['account/get'](undefined))
  const handlers: Handlers = {
    'app/info': async () => ok({ version: host.version, host: host.kind, platform: host.platform }),
    ...createSettingsHandlers(host, connection),
    ...account,
    'connection/get': async () => ok(connectionView()),
    'connection/cancelWaits': async () => ok({ cancelled: service.cancelWaits() }),
    ...jobs.handlers(),
    ...createLookupHandlers(service, refreshAccount),
    'sandbox/sample': () => connection.sample(),
    'files/pickCsv': async () =>
      host.pickCsv
        ? ok(await host.pickCsv())
        : fail('not_available', 'Drop the file on the window or use the file picker.'),
  }
  return {
    handlers,
    /** Picks up jobs a previous run left unfinished, so they continue without the window asking. */
    start: async () => {
      await jobs.manager()
    },
    close: async () => {
      service.close()
      await jobs.close()
      await connection.close()
    },
  }
}
