import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { bigWorkbook } from '../../support/workbooks'

const child = fileURLToPath(new URL('./workbook-worker-child.ts', import.meta.url))
const webConfig = fileURLToPath(new URL('../../../tsconfig.web.json', import.meta.url))

// A large sheet is read as a stream in the app too: its workbook worker opens a workbook of a
// million rows and hands out the sheet as CSV within a heap of 1 GB and about as much memory in all.
// Holding the sheet as one document, as before, took 3.1 GB.
describe('the app’s workbook worker: a workbook of a million rows', () => {
  it('makes the sheet CSV within about 1 GB', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lk-big-worker-'))
    try {
      const path = join(dir, 'people.xlsx')
      writeFileSync(path, bigWorkbook(1_000_000))
      const result = spawnSync(
        process.execPath,
        ['--max-old-space-size=1024', '--import', 'tsx', child, path],
        // The worker's imports are the renderer's (`@domain/…`), resolved by the renderer's config.
        { encoding: 'utf8', maxBuffer: 1 << 20, env: { ...process.env, TSX_TSCONFIG_PATH: webConfig } },
      )
      expect(result.stderr).not.toMatch(/heap out of memory|RangeError/)
      expect(result.status).toBe(0)
      const read = JSON.parse(result.stdout) as { sheet: string; lines: number; last: string; maxRss: number }
      expect(read.sheet).toBe('People')
      expect(read.lines).toBe(1_000_001)
      expect(read.last).toBe('Margaret,Margaret,p999999@example.com,249999.75')
      expect(read.maxRss).toBeLessThan(1024 ** 3)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 600_000)
})
