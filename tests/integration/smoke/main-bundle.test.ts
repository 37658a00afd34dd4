import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { channelNames } from '../../../electron/shared/contract'

const run = promisify(execFile)
const bundle = 'out/main/index.js'

describe('built main bundle', () => {
  it('loads in Node with a stub electron module and registers every channel', async () => {
    expect(existsSync(bundle), 'build the app first: npm run build').toBe(true)
    const { stdout } = await run(
      process.execPath,
      ['--import', './tests/support/electron-stub/register.mjs', bundle],
      {
        env: {
          ...process.env,
          LEADKEEPER_SMOKE_REPORT: '1',
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
    }
    expect(report.channels.sort()).toEqual([...channelNames].sort())
    expect(report.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
    })
    expect(existsSync(String(report.webPreferences['preload']))).toBe(true)
    expect(report.loaded).toMatch(/out[/\\]renderer[/\\]index\.html$/)
    expect(existsSync(report.loaded)).toBe(true)
    expect(report.menu).toBe(true)
    expect(report.permissionHandlers).toBe(true)
  })
})
