import ExcelJS from 'exceljs'

/**
 * Workbooks as a spreadsheet program saves them, written by ExcelJS (not by the app's own writer):
 * a "Read me" sheet first, the list on the second, with a date, a percentage, a formula with its
 * cached value, a phone number stored as a number and text that looks like a formula.
 */
export async function peopleWorkbook(
  people: { first: string; last: string; domain: string }[] = [
    { first: 'Zoë', last: 'Brown', domain: 'brown.example' },
    { first: 'Ada', last: 'Lovelace', domain: 'analytical.com' },
  ],
): Promise<Uint8Array> {
  const book = new ExcelJS.Workbook()
  const readMe = book.addWorksheet('Read me')
  readMe.addRow(['This workbook lists the people we met at the trade fair.'])
  readMe.addRow(['Do not change the column names.'])
  const sheet = book.addWorksheet('People')
  sheet.addRow(['First name', 'Last name', 'Company domain', 'Met on', 'Share', 'Phone', 'Score', 'Note'])
  people.forEach((person, index) => {
    const row = sheet.addRow([
      person.first,
      person.last,
      person.domain,
      new Date(Date.UTC(2026, 2, 1 + index)),
      0.25,
      4915112345678 + index,
      { formula: `E${index + 2}*4`, result: 1 },
      index === 0 ? '=HYPERLINK("http://x")' : ` spaced ${index} `,
    ])
    row.getCell(4).numFmt = 'dd/mm/yyyy'
    row.getCell(5).numFmt = '0%'
  })
  book.addWorksheet('Empty')
  return new Uint8Array(await book.xlsx.writeBuffer())
}

/** Reads a workbook back with ExcelJS: the sheets, each row's cells as ExcelJS sees them. */
export async function readBack(bytes: Uint8Array): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  )
  return book
}

export const arrayBufferOf = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
