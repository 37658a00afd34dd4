import { describe, expect, it } from 'vitest'
import {
  columnName,
  sheetName,
  xlsxLimits,
  xlsxProblem,
  xlsxWriter,
} from '../../../../../electron/domain/export/xlsx'
import { readBack } from '../../../../support/workbooks'

function write(header: string[], rows: string[][], name = 'Trade fair') {
  const chunks: Uint8Array[] = []
  let finals = 0
  const writer = xlsxWriter({ sheetName: name, header, rows: rows.length }, (chunk, final) => {
    chunks.push(chunk)
    if (final) finals++
  })
  for (const row of rows) writer.row(row)
  const summary = writer.end()
  return { bytes: Buffer.concat(chunks), summary, finals }
}

describe('the Excel export', () => {
  it('writes one sheet that Excel’s readers open: header bold and frozen, every cell the text it was', async () => {
    const { bytes, summary, finals } = write(
      ['First name', 'Email', 'Phone', 'Note'],
      [
        ['Zoë', 'zoe@brown.example', '0049 30 1234', '=HYPERLINK("http://evil")'],
        ['', 'a<b>&c"d', '4915112345678', ' padded \u0001 '],
      ],
    )
    expect(summary).toEqual({ rows: 2, cut: 0 })
    expect(finals).toBe(1)
    const book = await readBack(bytes)
    expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['Trade fair'])
    const sheet = book.worksheets[0]!
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1, topLeftCell: 'A2' })
    expect(sheet.getCell('A1').font?.bold).toBe(true)
    expect(sheet.getRow(1).values).toEqual([undefined, 'First name', 'Email', 'Phone', 'Note'])
    expect(sheet.getRow(2).values).toEqual([
      undefined,
      'Zoë',
      'zoe@brown.example',
      '0049 30 1234',
      '=HYPERLINK("http://evil")',
    ])
    // A cell that starts with "=" is text, not a formula Excel would run.
    expect(sheet.getCell('D2').formula).toBeUndefined()
    expect(sheet.getCell('D2').type).toBe(3) // ExcelJS.ValueType.String
    // Empty stays empty; markup is text; characters XML cannot hold are dropped, spaces kept.
    expect(sheet.getCell('A3').value).toBeNull()
    expect(sheet.getCell('B3').value).toBe('a<b>&c"d')
    expect(sheet.getCell('C3').value).toBe('4915112345678')
    expect(sheet.getCell('D3').value).toBe(' padded  ')
  })

  it('cuts a cell longer than Excel holds, and counts it', async () => {
    const long = 'x'.repeat(xlsxLimits.cellCharacters + 10)
    const { bytes, summary } = write(['Note'], [[long], ['short']])
    expect(summary).toEqual({ rows: 2, cut: 1 })
    const sheet = (await readBack(bytes)).worksheets[0]!
    expect(String(sheet.getCell('A2').value)).toHaveLength(xlsxLimits.cellCharacters)
    expect(sheet.getCell('A3').value).toBe('short')
  })

  it('refuses a list longer or wider than a sheet before writing anything', () => {
    expect(xlsxProblem(1_048_575, 10)).toBeNull()
    expect(xlsxProblem(1_048_576, 10)).toMatch(
      /holds 1,048,575 rows under its header; this list has 1,048,576/,
    )
    expect(xlsxProblem(10, 16_385)).toMatch(/holds 16,384 columns/)
    const emitted: Uint8Array[] = []
    expect(() =>
      xlsxWriter({ sheetName: 'x', header: ['a'], rows: 2_000_000 }, (chunk) => emitted.push(chunk)),
    ).toThrow(/Export it as CSV/)
    expect(emitted).toEqual([])
  })

  it('names columns and sheets as Excel does', () => {
    expect([0, 25, 26, 51, 52, 701, 702, 16_383].map(columnName)).toEqual([
      'A',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ])
    expect(sheetName('Trade fair: 2026/Q1 [draft]?')).toBe('Trade fair  2026 Q1  draft')
    expect(sheetName("'''")).toBe('List')
    expect(sheetName('x'.repeat(40))).toHaveLength(31)
  })
})
