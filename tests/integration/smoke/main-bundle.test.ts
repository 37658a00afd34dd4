import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { channelNames } from '../../../electron/shared/contract'

const run = promisify(execFile)
const bundle = 'out/main/index.js'

interface Answer {
  url: string
  status: number | null
  headers: Record<string, string>
  start: string
  length: number
}

describe('built main bundle', () => {
  it('loads in Node with a stub electron module, registers every channel and serves app://bundle', async () => {
    expect(existsSync(bundle), 'build the app first: npm run build').toBe(true)
    const asset = readdirSync('out/renderer/assets').find((name) => /^list-query-.+\.js$/.test(name))
    expect(asset, 'the query worker is built as an asset of its own').toBeDefined()
    // Asked of the handler the bundle gave protocol.handle, in the bundle's own process.
    const requests = [
      'app://bundle/index.html',
      `app://bundle/assets/${asset}`,
      'app://bundle/../package.json',
      'app://bundle/%2e%2e/%2e%2e/package.json',
      'app://bundle/..%2f..%2fpackage.json',
      'app://bundle/..%5c..%5cpackage.json',
      'app://bundle/assets/..%2f..%2f..%2fmain%2findex.js',
      'app://other/index.html',
      'app://bundle/missing.js',
      'app://bundle/assets',
    ]
    const { stdout } = await run(
      process.execPath,
      ['--import', './tests/support/electron-stub/register.mjs', bundle],
      {
        env: {
          ...process.env,
          LEADKEEPER_SMOKE_REPORT: '1',
          LEADKEEPER_SMOKE_REQUESTS: JSON.stringify(requests),
          LEADKEEPER_TEST_USER_DATA: mkdtempSync(join(tmpdir(), 'leadkeeper-smoke-')),
        },
        timeout: 30_000,
      },
    )
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!) as {
      channels: string[]
      webPreferences: Record<string, unknown>
      loaded: string
      menu: boolean
      permissionHandlers: boolean
      schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>
      responses: Answer[]
    }
    expect(report.channels.sort()).toEqual([...channelNames].sort())
    expect(report.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    })
    expect(existsSync(String(report.webPreferences['preload']))).toBe(true)
    expect(report.loaded).toBe('app://bundle/index.html')
    expect(report.menu).toBe(true)
    expect(report.permissionHandlers).toBe(true)

    expect(report.schemes).toEqual([
      {
        scheme: 'app',
        privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true, codeCache: true },
      },
    ])
    const answer = new Map(report.responses.map((response) => [response.url, response]))
    const page = answer.get('app://bundle/index.html')!
    expect(page.status).toBe(200)
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(page.headers['content-security-policy']).toContain("script-src 'self'")
    expect(page.headers['x-content-type-options']).toBe('nosniff')
    expect(page.start.toLowerCase()).toContain('<!doctype html>')
    const worker = answer.get(`app://bundle/assets/${asset}`)!
    expect(worker.status).toBe(200)
    expect(worker.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(worker.length).toBeGreaterThan(100)
    for (const url of requests.slice(2)) {
      const refused = answer.get(url)!
      expect([403, 404], url).toContain(refused.status)
      expect(refused.start, url).not.toMatch(/"name"|import |export /)
      expect(refused.headers['content-security-policy'], url).toContain("default-src 'self'")
    }
  })
})
