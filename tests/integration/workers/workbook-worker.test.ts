import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runOnBigWorkbook } from '../../support/big-workbook-run'

const child = fileURLToPath(new URL('./workbook-worker-child.ts', import.meta.url))
const webConfig = fileURLToPath(new URL('../../../tsconfig.web.json', import.meta.url))

// A large sheet is read as a stream in the app too: its workbook worker opens a workbook of a
// million rows and hands out the sheet as CSV within a heap of 1 GB and about as much memory in all.
describe('the app’s workbook worker: a workbook of a million rows', () => {
  it('makes the sheet CSV within about 1 GB', () => {
    // The worker's imports are the renderer's (`@domain/…`), resolved by the renderer's config.
    const result = runOnBigWorkbook(child, 1_000_000, { ...process.env, TSX_TSCONFIG_PATH: webConfig })
    expect(result.stderr).not.toMatch(/heap out of memory|RangeError/)
    expect(result.status).toBe(0)
    const read = JSON.parse(result.stdout) as { sheet: string; lines: number; last: string; maxRss: number }
    expect(read.sheet).toBe('People')
    expect(read.lines).toBe(1_000_001)
    expect(read.last).toBe('Margaret,Margaret,p999999@example.com,249999.75')
    expect(read.maxRss).toBeLessThan(1024 ** 3)
  }, 600_000)
})
