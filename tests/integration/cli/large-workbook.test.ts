import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { strToU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { handWorkbook } from '../../support/workbooks'
import { zipOf } from '../../support/zip'

const child = fileURLToPath(new URL('./large-workbook-child.ts', import.meta.url))

/** A sheet of `rows` people under a header, names from the shared strings, emails inline, as Excel keeps them. */
function bigWorkbook(rows: number): Uint8Array {
  const names = ['Ada', 'Zoë', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Ken', 'Margaret']
  const strings = ['first_name', 'last_name', 'email', 'score', ...names]
  const parts = Object.entries(
    unzipSync(handWorkbook([{ name: 'People', data: '' }], { sharedStrings: strings })),
  )
    .filter(([name]) => !name.startsWith('xl/worksheets/'))
    .map(([name, data]) => ({ name, pieces: [data], store: true }))
  const pieces = [
    strToU8(
      '<?xml version="1.0"?><worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c><c r="D1" t="s"><v>3</v></c></row>',
    ),
  ]
  for (let from = 0; from < rows; from += 10_000) {
    let text = ''
    for (let index = from; index < Math.min(rows, from + 10_000); index++) {
      const r = index + 2
      text += `<row r="${r}"><c r="A${r}" t="s"><v>${4 + (index % 8)}</v></c><c r="B${r}" t="s"><v>${4 + ((index >> 3) % 8)}</v></c><c r="C${r}" t="inlineStr"><is><t>p${index}@example.com</t></is></c><c r="D${r}"><v>${index / 4}</v></c></row>`
    }
    pieces.push(strToU8(text))
  }
  pieces.push(strToU8('</sheetData></worksheet>'))
  return zipOf([...parts, { name: 'xl/worksheets/sheet1.xml', pieces }])
}

// A large sheet is read as a stream: the command line reads a million rows of a workbook with a heap
// of 1 GB, the memory the app's workbook worker has to work in too.
describe('enrich: a workbook of a million rows', () => {
  it('reads every row within a 1 GB heap', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lk-big-xlsx-'))
    try {
      const path = join(dir, 'people.xlsx')
      writeFileSync(path, bigWorkbook(1_000_000))
      const result = spawnSync(
        process.execPath,
        ['--max-old-space-size=1024', '--import', 'tsx', child, path],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      )
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
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 600_000)
})
