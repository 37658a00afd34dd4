import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBackend, type Backend } from '../../electron/backend'
import { createFileSettingsStore } from '../../electron/backend/file-settings-store'
import type { EventName, EventPayload } from '../../electron/shared/contract'
import { startSandbox, type Sandbox } from '../../electron/sandbox'
import { createWebKeyVault } from '../../electron/web/key-vault'

export interface TestBackend {
  backend: Backend
  sandbox: Sandbox
  events: Array<{ event: EventName; payload: unknown }>
  home: string
  /** Resolves with the first event of that name whose payload passes the test. */
  next<E extends EventName>(event: E, test?: (payload: EventPayload<E>) => boolean): Promise<EventPayload<E>>
  /** Hears every event from now on, as a window would; returns a function that stops it. */
  listen(listener: (event: EventName, payload: unknown) => void): () => void
  close(): Promise<void>
}

/** The host-agnostic backend on a time-scaled sandbox, with every emitted event recorded. */
export async function startTestBackend(timeScale = 0.01): Promise<TestBackend> {
  const home = mkdtempSync(join(tmpdir(), 'leadkeeper-backend-'))
  const sandbox = await startSandbox({ port: 0, timeScale })
  const events: TestBackend['events'] = []
  const listeners = new Set<(event: EventName, payload: unknown) => void>()
  const waiters: Array<{
    event: EventName
    test: (payload: never) => boolean
    resolve: (payload: never) => void
  }> = []
  const backend = createBackend(
    {
      kind: 'web',
      version: '0.0.0-test',
      platform: process.platform,
      settings: createFileSettingsStore(join(home, 'settings.json')),
      keys: createWebKeyVault({ env: {}, keyFile: join(home, 'api-key') }),
      emit: (event, payload) => {
        events.push({ event, payload })
        for (const listener of [...listeners]) listener(event, payload)
        for (const waiter of [...waiters]) {
          if (waiter.event === event && waiter.test(payload as never)) {
            waiters.splice(waiters.indexOf(waiter), 1)
            waiter.resolve(payload as never)
          }
        }
      },
      stateDir: join(home, 'state'),
    },
    { startSandbox: async () => sandbox, sandboxTimeScale: timeScale },
  )
  return {
    backend,
    sandbox,
    events,
    home,
    next: (event, test = () => true) =>
      new Promise((resolve) => waiters.push({ event, test: test as (payload: never) => boolean, resolve })),
    listen: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    close: async () => {
      await backend.close()
    },
  }
}
