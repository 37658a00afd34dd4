import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runOnBigWorkbook } from '../../support/big-workbook-run'

const child = fileURLToPath(new URL('./large-workbook-child.ts', import.meta.url))

// A large sheet is read as a stream: the command line reads a million rows of a workbook with a heap
// of 1 GB, the memory the app's workbook worker has to work in too.
describe('enrich: a workbook of a million rows', () => {
  it('reads every row within a 1 GB heap', () => {
    const result = runOnBigWorkbook(child, 1_000_000)
    expect(result.stderr).not.toMatch(/heap out of memory|RangeError/)
    expect(result.status).toBe(0)
    const read = JSON.parse(result.stdout) as {
      rows: number
      columns: string[]
      last: string[]
      maxRss: number
    }
    expect(read.rows).toBe(1_000_000)
    expect(read.columns).toEqual(['first_name', 'last_name', 'email', 'score'])
    expect(read.last).toEqual(['Margaret', 'Margaret', 'p999999@example.com', '249999.75'])
    expect(read.maxRss).toBeLessThan(1024 ** 3)
  }, 600_000)
})
