import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createBackend } from '../../electron/backend'
import { createFileSettingsStore } from '../../electron/backend/file-settings-store'
import { startSandbox } from '../../electron/sandbox'
import { createWebKeyVault } from '../../electron/web/key-vault'
import { startWebHost, type WebHost } from '../../electron/web/server'

/**
 * A web host on a free port with its own settings folder and a tiny renderer, for HTTP-level tests;
 * given the `home` of a host before, it starts again where that one stopped, as a restart would.
 */
export async function startTestWebHost(
  env: NodeJS.ProcessEnv = {},
  home = mkdtempSync(join(tmpdir(), 'leadkeeper-web-')),
): Promise<WebHost & { home: string }> {
  const rendererDir = join(home, 'renderer')
  mkdirSync(join(rendererDir, 'assets'), { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Leadkeeper</title>')
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("app")')
  writeFileSync(join(home, 'secret.txt'), 'outside the renderer')
  const host = await startWebHost({
    port: 0,
    rendererDir,
    createBackend: (emit) =>
      createBackend(
        {
          kind: 'web',
          version: '0.0.0-test',
          platform: process.platform,
          settings: createFileSettingsStore(join(home, 'settings.json')),
          keys: createWebKeyVault({ env, keyFile: join(home, 'api-key') }),
          emit,
          stateDir: join(home, 'state'),
        },
        { startSandbox: () => startSandbox({ port: 0, timeScale: 0.01 }), sandboxTimeScale: 0.01 },
      ),
  })
  return Object.assign(host, { home })
}
