import ExcelJS from 'exceljs'
import { strToU8, unzipSync, zipSync } from 'fflate'
import { zipOf } from './zip'

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

/**
 * A workbook written by hand, as other programs write them (DataGrip, openpyxl, xlsxwriter, scripts):
 * each sheet's `<sheetData>` as given, with the workbook's parts around it.
 */
export function handWorkbook(
  sheets: { name: string; data: string }[],
  options: { sharedStrings?: string[]; calcPr?: string; styles?: string } = {},
): Uint8Array {
  const files: Record<string, Uint8Array> = {}
  const put = (path: string, text: string) => (files[path] = strToU8(text))
  const ns = 'http://schemas.openxmlformats.org'
  put(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="${ns}/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>`,
  )
  put(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships"><Relationship Id="rId1" Type="${ns}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  )
  const rels = sheets.map(
    (_, index) =>
      `<Relationship Id="rId${index + 1}" Type="${ns}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${index + 1}.xml"/>`,
  )
  if (options.sharedStrings)
    rels.push(
      `<Relationship Id="rIdS" Type="${ns}/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>`,
    )
  if (options.styles)
    rels.push(
      `<Relationship Id="rIdT" Type="${ns}/officeDocument/2006/relationships/styles" Target="styles.xml"/>`,
    )
  put(
    'xl/_rels/workbook.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${ns}/package/2006/relationships">${rels.join('')}</Relationships>`,
  )
  put(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${ns}/spreadsheetml/2006/main" xmlns:r="${ns}/officeDocument/2006/relationships"><sheets>${sheets
      .map((sheet, index) => `<sheet name="${sheet.name}" sheetId="${index + 1}" r:id="rId${index + 1}"/>`)
      .join('')}</sheets>${options.calcPr ?? ''}</workbook>`,
  )
  sheets.forEach((sheet, index) =>
    put(
      `xl/worksheets/sheet${index + 1}.xml`,
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${ns}/spreadsheetml/2006/main"><sheetData>${sheet.data}</sheetData></worksheet>`,
    ),
  )
  if (options.sharedStrings)
    put(
      'xl/sharedStrings.xml',
      `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${ns}/spreadsheetml/2006/main">${options.sharedStrings
        .map((text) => `<si><t xml:space="preserve">${text}</t></si>`)
        .join('')}</sst>`,
    )
  if (options.styles) put('xl/styles.xml', options.styles)
  return zipSync(files)
}

/** A row of inline strings, as DataGrip writes them: no `r=` on the row or its cells. */
export const inlineRow = (cells: string[]) =>
  `<row>${cells.map((cell) => `<c t="inlineStr"><is><t>${cell}</t></is></c>`).join('')}</row>`

/** An OpenDocument spreadsheet as LibreOffice packs it: its kind stored first, then its content. */
export function openDocumentSpreadsheet(): Uint8Array {
  return zipSync({
    mimetype: [strToU8('application/vnd.oasis.opendocument.spreadsheet'), { level: 0 }],
    'content.xml': strToU8('<?xml version="1.0"?><office:document-content/>'),
    'META-INF/manifest.xml': strToU8('<?xml version="1.0"?><manifest:manifest/>'),
  })
}

/** A sheet of `rows` people under a header, names from the shared strings, emails inline, as Excel keeps them. */
export function bigWorkbook(rows: number): Uint8Array {
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
