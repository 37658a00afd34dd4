import { homedir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createBackend } from '../backend'
import { createFileSettingsStore } from '../backend/file-settings-store'
import { startSandbox } from '../sandbox'
import { createWebKeyVault } from './key-vault'
import { startWebHost } from './server'

/** `npm run web`: the same app in a browser, for machines without an Electron binary and for e2e. */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: process.env['LEADKEEPER_WEB_PORT'] ?? '5719' },
      json: { type: 'boolean', default: false },
    },
  })
  const home = resolve(
    process.env['LEADKEEPER_HOME'] ??
      join(process.env['XDG_CONFIG_HOME'] ?? join(homedir(), '.config'), 'leadkeeper'),
  )
  // The in-app sandbox runs five times faster than the real service, so a demo feels lively.
  const sandboxTimeScale = Number(process.env['LEADKEEPER_SANDBOX_TIME_SCALE'] ?? 0.2)
  const rendererDir = resolve(
    process.env['LEADKEEPER_RENDERER_DIR'] ?? fileURLToPath(new URL('../../out/renderer', import.meta.url)),
  )
  const createHost = (port: number) =>
    startWebHost({
      port,
      rendererDir,
      createBackend: (emit) =>
        createBackend(
          {
            kind: 'web',
            version: process.env['npm_package_version'] ?? '0.0.0',
            platform: process.platform,
            settings: createFileSettingsStore(join(home, 'settings.json')),
            keys: createWebKeyVault({ env: process.env, keyFile: join(home, 'api-key') }),
            emit,
            stateDir: join(home, 'state'),
          },
          {
            // The sandbox keeps its state beside the ledger, so demo jobs survive a restart as real ones do.
            startSandbox: () =>
              startSandbox(
                {
                  port: 0,
                  timeScale: sandboxTimeScale,
                  stateDir: join(home, 'state', 'sandbox'),
                },
                // Private to this host; the end-to-end suite alone turns its control routes on.
                { control: process.env['LEADKEEPER_SANDBOX_CONTROL'] === '1' },
              ),
            sandboxTimeScale,
          },
        ),
    })

  const requested = Number(values.port)
  const host = await createHost(requested).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error
    return createHost(0)
  })
  if (values.json) {
    console.log(JSON.stringify({ url: host.url, origin: host.origin, home }))
  } else {
    console.log(`Leadkeeper is running. Open this address in your browser:\n\n  ${host.url}\n`)
    console.log(`Settings and a saved key live in ${home}. Press Ctrl+C to stop.`)
  }
  const stop = () => void host.close().then(() => process.exit(0))
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
