import { test as base, type Page } from '@playwright/test'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'

export interface WebHostProcess {
  url: string
  origin: string
  home: string
  /** Every WebSocket frame the page sent or received, to prove what never crossed the wire. */
  frames: string[]
}

/** Runs the real `npm run web` entry (built renderer required) with its own settings folder. */
async function startWebHost(
  env: Record<string, string> = {},
  files: Record<string, string> = {},
): Promise<{ process: ChildProcess; host: Omit<WebHostProcess, 'frames'> }> {
  const home = mkdtempSync(join(tmpdir(), 'leadkeeper-e2e-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, path)), { recursive: true, mode: 0o700 })
    writeFileSync(join(home, path), text, { mode: 0o600 })
  }
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/web/start.ts', '--port', '0', '--json'],
    {
      env: {
        ...process.env,
        // The sandbox runs fifty times faster than real time, so a whole enrichment takes seconds.
        LEADKEEPER_SANDBOX_TIME_SCALE: '0.02',
        // The specs set the embedded sandbox's balances and faults through its control routes.
        LEADKEEPER_SANDBOX_CONTROL: '1',
        ...env,
        LEADKEEPER_HOME: home,
        LEADKEEPER_API_KEY: '',
        LEADKEEPER_KEY_FILE: '',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const lines = createInterface({ input: child.stdout! })
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`the web host exited with ${code}`)))
  })
  const parsed = JSON.parse(first) as { url: string; origin: string }
  return { process: child, host: { ...parsed, home } }
}

export const test = base.extend<{
  homeFiles: Record<string, string>
  webHost: WebHostProcess
  app: Page
}>({
  /** Files in the web host's folder before it starts (path within it: text), as an earlier run left them. */
  homeFiles: [{}, { option: true }],
  webHost: async ({ page, homeFiles }, use) => {
    const { process: child, host } = await startWebHost({}, homeFiles)
    const frames: string[] = []
    page.on('websocket', (socket) => {
      socket.on('framesent', (frame) => frames.push(String(frame.payload)))
      socket.on('framereceived', (frame) => frames.push(String(frame.payload)))
    })
    await use({ ...host, frames })
    child.kill('SIGTERM')
  },
  app: async ({ page, webHost }, use, testInfo) => {
    // What the page said that a failure's snapshot cannot show (a notice gone after its seconds, an
    // error in a worker), printed when the test fails.
    const said: string[] = []
    const at = () => `${((Date.now() - started) / 1000).toFixed(1)} s`
    const started = Date.now()
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        said.push(`${at()} console ${message.type()}: ${message.text()}`)
    })
    page.on('pageerror', (error) => said.push(`${at()} page error: ${error.message}`))
    page.on('worker', (worker) =>
      worker.on('close', () => said.push(`${at()} worker closed: ${worker.url()}`)),
    )
    page.on('requestfailed', (request) => {
      const failure = request.failure()?.errorText ?? ''
      if (failure !== 'net::ERR_ABORTED') said.push(`${at()} request failed: ${request.url()} ${failure}`)
    })
    await page.goto(webHost.url)
    await use(page)
    if (testInfo.status !== testInfo.expectedStatus && said.length > 0)
      console.log(`What the page said before the failure:\n${said.join('\n')}`)
  },
})

export { expect } from '@playwright/test'
