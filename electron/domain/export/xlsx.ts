/**
 * A list as an Excel workbook (.xlsx), written as it streams: one sheet, the header row bold and
 * frozen, every cell as text. The ZIP container is fflate's; the few XML parts are written here.
 *
 * Every cell is an inline string, so Excel never runs one as a formula ("=1+1" stays text) and never
 * reads a phone number or a postcode as a number (no lost leading zero, no 4.92E+12). Excel's own
 * limits are kept: a list longer or wider than a sheet is refused before anything is written (see
 * `xlsxLimits`), and a cell longer than a cell can hold is cut and counted, so the caller can say so.
 */
import { Zip, ZipDeflate, strToU8 } from 'fflate'

export const xlsxLimits = { rows: 1_048_576, columns: 16_384, cellCharacters: 32_767 }

export interface XlsxWriter {
  row(cells: readonly string[]): void
  /** Ends the workbook; the last chunk is emitted with `final` set. */
  end(): XlsxSummary
}

export interface XlsxSummary {
  rows: number
  /** Cells cut to Excel's 32,767 characters. */
  cut: number
}

export interface XlsxOptions {
  sheetName: string
  header: readonly string[]
  /** Rows to come under the header, when known: more than a sheet holds is refused at once. */
  rows?: number
}

/** Why this list cannot be one sheet, or null when it can. */
export function xlsxProblem(rows: number, columns: number): string | null {
  if (rows + 1 > xlsxLimits.rows) {
    return `An Excel sheet holds ${(xlsxLimits.rows - 1).toLocaleString('en-US')} rows under its header; this list has ${rows.toLocaleString('en-US')}. Export it as CSV, or filter it first.`
  }
  if (columns > xlsxLimits.columns) {
    return `An Excel sheet holds ${xlsxLimits.columns.toLocaleString('en-US')} columns; this list has ${columns.toLocaleString('en-US')}. Export it as CSV.`
  }
  return null
}

const namespaces =
  'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
const declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
const relationship = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships'
const contentType = 'application/vnd.openxmlformats-officedocument.spreadsheetml'

/** Characters XML 1.0 cannot hold (control characters, unpaired surrogates): dropped from cells. */
/* eslint-disable no-control-regex -- these patterns exist to find control characters */
const invalidXml =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const needsEscape = /[&<>\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/
/** Excel refuses these in a sheet's name. */
const sheetNameRefuses = /[[\]:*?/\\\u0000-\u001F]/g
/* eslint-enable no-control-regex */

function xmlText(value: string): string {
  if (!needsEscape.test(value)) return value
  return value.replace(invalidXml, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

const attribute = (value: string) => xmlText(value).replace(/"/g, '&quot;')

/** Column letters: 0 → A, 25 → Z, 26 → AA. */
export function columnName(index: number): string {
  let name = ''
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name
  return name
}

/** A sheet name Excel accepts: at most 31 characters, none of []:*?/\, not blank. */
export function sheetName(name: string): string {
  const clean = name
    .replace(sheetNameRefuses, ' ')
    .replace(/^'+|'+$/g, '')
    .trim()
    .slice(0, 31)
    .trim()
  return clean || 'List'
}

const styles = `${declaration}<styleSheet ${namespaces}><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`

/** Text is flushed into the ZIP stream in pieces of about this many characters. */
const flushAt = 1 << 20

export function xlsxWriter(
  options: XlsxOptions,
  emit: (chunk: Uint8Array, final: boolean) => void,
): XlsxWriter {
  const problem = xlsxProblem(options.rows ?? 0, options.header.length)
  if (problem) throw new Error(problem)
  const letters = options.header.map((_, index) => columnName(index))
  let failure: Error | null = null
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error
    else emit(chunk, final)
  })
  const part = (name: string, text: string) => {
    const file = new ZipDeflate(name, { level: 6 })
    zip.add(file)
    file.push(strToU8(text), true)
  }
  part(
    '[Content_Types].xml',
    `${declaration}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${contentType}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${contentType}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${contentType}.styles+xml"/></Types>`,
  )
  part(
    '_rels/.rels',
    `${declaration}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationship}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  )
  part(
    'xl/workbook.xml',
    `${declaration}<workbook ${namespaces}><bookViews><workbookView/></bookViews><sheets><sheet name="${attribute(sheetName(options.sheetName))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  )
  part(
    'xl/_rels/workbook.xml.rels',
    `${declaration}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relationship}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${relationship}/styles" Target="styles.xml"/></Relationships>`,
  )
  part('xl/styles.xml', styles)

  const sheet = new ZipDeflate('xl/worksheets/sheet1.xml', { level: 6 })
  zip.add(sheet)
  const widths = options.header.map((title) => Math.min(40, Math.max(10, title.length + 2)))
  const cols = widths.length
    ? `<cols>${widths.map((width, at) => `<col min="${at + 1}" max="${at + 1}" width="${width}" customWidth="1"/>`).join('')}</cols>`
    : ''
  let text = `${declaration}<worksheet ${namespaces}><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>${cols}<sheetData>`
  let line = 0
  let cut = 0

  const flush = (final: boolean) => {
    sheet.push(strToU8(text), final)
    text = ''
    if (failure) throw failure
  }
  const write = (cells: readonly string[], style: string) => {
    if (line >= xlsxLimits.rows) throw new Error(xlsxProblem(line, 0) ?? 'The sheet is full.')
    line++
    text += `<row r="${line}">`
    const count = Math.min(cells.length, xlsxLimits.columns)
    for (let at = 0; at < count; at++) {
      let value = cells[at]!
      if (value === '') continue
      if (value.length > xlsxLimits.cellCharacters) {
        value = value.slice(0, xlsxLimits.cellCharacters)
        cut++
      }
      const space = value.trim() === value ? '' : ' xml:space="preserve"'
      text += `<c r="${letters[at] ?? columnName(at)}${line}"${style} t="inlineStr"><is><t${space}>${xmlText(value)}</t></is></c>`
    }
    text += '</row>'
    if (text.length >= flushAt) flush(false)
  }

  write(options.header, ' s="1"')
  return {
    row: (cells) => write(cells, ''),
    end: () => {
      text += '</sheetData></worksheet>'
      flush(true)
      zip.end()
      if (failure) throw failure
      return { rows: line - 1, cut }
    },
  }
}
