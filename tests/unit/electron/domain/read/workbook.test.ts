import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { ImportError } from '../../../../../electron/domain/read/errors'
import { readRows } from '../../../../../electron/domain/read/rows'
import {
  chooseSheet,
  looksLikeWorkbook,
  readWorkbook,
  sheetCellText,
  sheetToCsv,
  summarize,
} from '../../../../../electron/domain/read/workbook'
import { arrayBufferOf, peopleWorkbook } from '../../../../support/workbooks'

describe('reading an Excel workbook', () => {
  it('finds the list behind a "Read me" sheet and reads its cells as the sheet holds them', async () => {
    const sheets = await readWorkbook(arrayBufferOf(await peopleWorkbook()))
    expect(sheets.map(summarize)).toEqual([
      { name: 'Read me', rows: 1, columns: 1, table: false, list: true },
      { name: 'People', rows: 2, columns: 8, table: true, list: true },
      { name: 'Empty', rows: 0, columns: 0, table: false, list: false },
    ])
    const people = chooseSheet(sheets)
    expect(people.name).toBe('People')
    expect(people.rows[1]).toEqual([
      'Zoë',
      'Brown',
      'brown.example',
      '2026-03-01',
      '0.25',
      '4915112345678',
      '1',
      '=HYPERLINK("http://x")',
    ])
    // Text keeps its spaces; the reader's checks and the export's escaping deal with them later.
    expect(people.rows[2]![7]).toBe(' spaced 1 ')
  })

  it('turns the sheet into CSV that the list reader reads back to the same cells', async () => {
    const people = chooseSheet(await readWorkbook(arrayBufferOf(await peopleWorkbook())))
    const csv = sheetToCsv(people)
    const read = readRows(csv, ',', true).map((row) => row.cells)
    expect(read).toEqual(people.rows)
  })

  it('reads the sheet named, in any case, and names the sheets when there is none of that name', async () => {
    const sheets = await readWorkbook(arrayBufferOf(await peopleWorkbook()))
    expect(chooseSheet(sheets, 'read ME').name).toBe('Read me')
    expect(() => chooseSheet(sheets, 'Leads')).toThrow(
      'This workbook has no sheet “Leads”; its sheets: “Read me”, “People”, “Empty”.',
    )
  })

  it('says so when no sheet holds a list, and when the file is no workbook at all', async () => {
    const book = new ExcelJS.Workbook()
    book.addWorksheet('Notes').addRow(['only a title'])
    const sheets = await readWorkbook(arrayBufferOf(new Uint8Array(await book.xlsx.writeBuffer())))
    expect(() => chooseSheet(sheets)).toThrow(/No sheet of this workbook holds a list .*its sheets: “Notes”/)
    const broken = new TextEncoder().encode('PK\u0003\u0004 not really a zip')
    await expect(readWorkbook(arrayBufferOf(broken))).rejects.toBeInstanceOf(ImportError)
    await expect(readWorkbook(arrayBufferOf(broken))).rejects.toThrow(
      /could not be read as an Excel workbook/,
    )
  })

  it('knows a workbook by its first bytes and its name', () => {
    const zip = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0])
    expect(looksLikeWorkbook('people.xlsx', zip)).toBe(true)
    expect(looksLikeWorkbook('People.XLSM', zip)).toBe(true)
    expect(looksLikeWorkbook('archive.zip', zip)).toBe(false)
    expect(looksLikeWorkbook('people.xlsx', new TextEncoder().encode('a,b\n'))).toBe(false)
  })

  it('writes numbers to Excel’s 15 digits, dates in ISO form, truth values as Excel shows them', () => {
    expect(sheetCellText(0.1 + 0.2)).toBe('0.3')
    expect(sheetCellText(4915112345678)).toBe('4915112345678')
    expect(sheetCellText(1e21)).toBe('1000000000000000000000')
    expect(sheetCellText(new Date(Date.UTC(2026, 0, 5)))).toBe('2026-01-05')
    expect(sheetCellText(new Date(Date.UTC(2026, 0, 5, 13, 45)))).toBe('2026-01-05 13:45')
    expect(sheetCellText(new Date(Date.UTC(2026, 0, 5, 13, 45, 7)))).toBe('2026-01-05 13:45:07')
    expect(sheetCellText(true)).toBe('TRUE')
    expect(sheetCellText(null)).toBe('')
  })
})
