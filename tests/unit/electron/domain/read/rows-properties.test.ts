import fc from 'fast-check'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { RowReader, isBlank } from '../../../../../electron/domain/read/rows'

/** Bounded for CI: a fixed number of runs, and never past this much time whatever the machine. */
const budget = { numRuns: 300, interruptAfterTimeLimit: 10_000 }

/**
 * Cells made of what makes CSV hard: delimiters, quotes, line breaks of every kind, spaces, and
 * text of several scripts.
 */
const cell = fc.stringMatching(/^[a-zA-Z0-9 ,;"\r\n\tÀéß中😀-]{0,8}$/u)
const table = fc.array(fc.array(cell, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 12 })

function readInChunks(text: string, cuts: number[]): string[][] {
  const reader = new RowReader(',')
  const rows: string[][] = []
  let start = 0
  for (const cut of [...new Set(cuts.map((at) => Math.min(at, text.length)))].sort((a, b) => a - b)) {
    if (cut <= start) continue
    rows.push(...reader.push(text.slice(start, cut)).map((row) => row.cells))
    start = cut
  }
  rows.push(...reader.push(text.slice(start), true).map((row) => row.cells))
  return rows
}

describe('RowReader against PapaParse', () => {
  it('reads any table as PapaParse reads it whole, however the text arrives', () => {
    fc.assert(
      fc.property(
        table,
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat({ max: 400 }), { maxLength: 6 }),
        (rows, newline, cuts) => {
          const text = Papa.unparse(rows, { newline })
          // A quoted cell's line breaks come back as written, whatever ends the rows.
          const expected = Papa.parse<string[]>(text, { delimiter: ',', newline }).data.filter(
            (cells) => !isBlank(cells),
          )
          expect(readInChunks(text, cuts)).toEqual(expected)
        },
      ),
      budget,
    )
  })
})
