import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { ImportError } from '../../../../../electron/domain/read/errors'
import { readRows } from '../../../../../electron/domain/read/rows'
import {
  chooseSheet,
  findSheet,
  looksLikeWorkbook,
  sheetCellText,
  sheetCsv,
  summarize,
  Workbook,
} from '../../../../../electron/domain/read/workbook'
import { sheetRows } from '../../../../support/sheets'
import { peopleWorkbook } from '../../../../support/workbooks'

async function csvOf(book: Workbook, name: string): Promise<string> {
  let text = ''
  for await (const piece of sheetCsv(book, name)) text += piece
  return text
}

async function summaries(book: Workbook) {
  const found = []
  for (const sheet of book.sheets) found.push(await summarize(book, sheet.name))
  return found
}

describe('reading an Excel workbook', () => {
  it('finds the list behind a "Read me" sheet and reads its cells as the sheet holds them', async () => {
    const bytes = await peopleWorkbook()
    const found = await summaries(await Workbook.open(bytes))
    expect(found).toEqual([
      { name: 'Read me', rows: 1, columns: 1, table: false, list: true },
      { name: 'People', rows: 2, columns: 8, table: true, list: true },
      { name: 'Empty', rows: 0, columns: 0, table: false, list: false },
    ])
    expect(chooseSheet(found)).toBe('People')
    const people = (await sheetRows(bytes))[1]!
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
    const bytes = await peopleWorkbook()
    const read = readRows(await csvOf(await Workbook.open(bytes), 'People'), ',', true).map(
      (row) => row.cells,
    )
    expect(read).toEqual((await sheetRows(bytes))[1]!.rows)
  })

  it('reads the sheet named, in any case, and names the sheets when there is none of that name', async () => {
    const names = (await Workbook.open(await peopleWorkbook())).sheets.map((sheet) => sheet.name)
    expect(findSheet(names, 'read ME')).toBe('Read me')
    expect(() => findSheet(names, 'Leads')).toThrow(
      'This workbook has no sheet “Leads”; its sheets: “Read me”, “People”, “Empty”.',
    )
  })

  it('says so when no sheet holds a list, and when the file is no workbook at all', async () => {
    const book = new ExcelJS.Workbook()
    book.addWorksheet('Notes').addRow(['only a title'])
    const notes = await Workbook.open(new Uint8Array(await book.xlsx.writeBuffer()))
    const found = await summaries(notes)
    expect(() => chooseSheet(found)).toThrow(/No sheet of this workbook holds a list .*its sheets: “Notes”/)
    const broken = new TextEncoder().encode('PK\u0003\u0004 not really a zip')
    await expect(Workbook.open(broken)).rejects.toBeInstanceOf(ImportError)
    await expect(Workbook.open(broken)).rejects.toThrow(/could not be read as an Excel workbook/)
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
