/**
 * Excel workbooks (.xlsx) in: a workbook is read with `read-excel-file`, one sheet is chosen, and its
 * rows become CSV text that the list's one reading path takes as it takes any CSV (preview, mapping,
 * checks, import). Used by the import dialog's worker and by the command line alike.
 *
 * Cells read as the sheet holds them, in a form that a list can match on: text as written; numbers
 * exactly, to Excel's 15 significant digits and in digits, never with an exponent (a phone number
 * stored as a number is not "4.92E+12", 0.0000001 not "1e-7"); dates as ISO 8601 (2024-03-01, or
 * 2024-03-01 13:45 with a time of day, rounded to the second as Excel shows it); TRUE and FALSE as Excel
 * shows them; a formula as its last computed value (an error value such as #DIV/0! reads as empty).
 * A number's display format (a percentage, a currency) is not applied: 25 % reads as 0.25.
 *
 * An Excel 97–2003 file (.xls) never gets here: the text reader refuses it by its signature, with
 * what to do instead (`encoding.ts`).
 */
import Papa from 'papaparse'
import readExcelFile from 'read-excel-file/universal'
import { ImportError } from './errors'

export interface WorkbookSheet {
  name: string
  /** Every row of the sheet, each cell as text. */
  rows: string[][]
}

export interface SheetSummary {
  name: string
  /** The rows under the header that hold anything: what would become the list's rows. */
  rows: number
  columns: number
  /** A header of two or more named columns and at least one row under it. */
  table: boolean
  /** A header of at least one named column and at least one row under it. */
  list: boolean
}

const signature = [0x50, 0x4b, 0x03, 0x04]

/** Whether the bytes start as a workbook (a ZIP archive, as .xlsx files are) and the name says so. */
export function looksLikeWorkbook(name: string, start: Uint8Array): boolean {
  return signature.every((byte, i) => start[i] === byte) && /\.(xlsx|xlsm)$/i.test(name)
}

const pad = (value: number) => String(value).padStart(2, '0')

/**
 * One cell as text (see the top of this file). Takes `unknown`: the reader's own type for a cell
 * names the Date constructor where it hands over Date objects.
 */
export function sheetCellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (typeof value === 'number') return numberText(value)
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return ''
    // A time of day is a fraction of a day in the file: 13:45 comes back as 13:44:59.999…, which
    // Excel shows rounded to the second, as it is read here.
    const at = new Date(Math.round(value.getTime() / 1000) * 1000)
    const day = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`
    const [hours, minutes, seconds] = [at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()]
    if (hours === 0 && minutes === 0 && seconds === 0) return day
    return `${day} ${pad(hours)}:${pad(minutes)}${seconds ? `:${pad(seconds)}` : ''}`
  }
  return String(value)
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return ''
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value)
  return plainDecimal(String(Number(value.toPrecision(15))))
}

/**
 * A number written out in digits, as a cell shows it and a list can match it: JavaScript writes
 * 0.0000001 as "1e-7" and 10^21 as "1e+21", which no one typed.
 */
function plainDecimal(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!match) return text
  const [, sign, lead, rest = '', power] = match as unknown as [string, string, string, string, string]
  const digits = lead + rest
  const exponent = Number(power)
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`
  return sign + digits + '0'.repeat(Math.max(0, exponent - rest.length))
}

/** Reads every sheet of a workbook. Throws an ImportError with a plain message when it is not one. */
export async function readWorkbook(bytes: ArrayBuffer): Promise<WorkbookSheet[]> {
  let sheets: { sheet: string; data: unknown[][] }[]
  try {
    sheets = await readExcelFile(bytes, { trim: false })
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new ImportError('workbook', `This file could not be read as an Excel workbook (${reason}).`)
  }
  return sheets.map(({ sheet, data }) => ({
    name: sheet,
    rows: data.map((row) => row.map(sheetCellText)),
  }))
}

const filled = (row: string[]) => row.filter((cell) => cell.trim() !== '').length

export function summarize(sheet: WorkbookSheet): SheetSummary {
  const first = sheet.rows.findIndex((row) => filled(row) > 0)
  const header = first >= 0 ? sheet.rows[first]! : []
  const named = new Set(header.map((cell) => cell.trim()).filter(Boolean)).size
  const rows = first >= 0 ? sheet.rows.slice(first + 1).filter((row) => filled(row) > 0).length : 0
  const below = rows > 0
  return {
    name: sheet.name,
    rows,
    columns: sheet.rows.reduce((widest, row) => Math.max(widest, row.length), 0),
    table: below && named >= 2,
    list: below && named >= 1,
  }
}

/**
 * The sheet to read: the one asked for by name (case-insensitive); else the first that holds a table
 * (so a workbook that opens on a "Read me" note still imports its list); else the first that holds a
 * list of one column.
 */
export function chooseSheet(sheets: WorkbookSheet[], wanted?: string): WorkbookSheet {
  const names = sheets.map((sheet) => `“${sheet.name}”`).join(', ')
  if (wanted !== undefined) {
    const found = sheets.find((sheet) => sheet.name.toLowerCase() === wanted.trim().toLowerCase())
    if (!found)
      throw new ImportError('workbook', `This workbook has no sheet “${wanted}”; its sheets: ${names}.`)
    return found
  }
  const summaries = sheets.map(summarize)
  const index = summaries.findIndex((sheet) => sheet.table)
  const chosen = index >= 0 ? index : summaries.findIndex((sheet) => sheet.list)
  if (chosen < 0) {
    throw new ImportError(
      'workbook',
      `No sheet of this workbook holds a list (a header row with rows under it); its sheets: ${names}.`,
    )
  }
  return sheets[chosen]!
}

/** A sheet's rows as CSV text (comma, CRLF, quoted where needed), from its first non-empty row. */
export function sheetToCsv(sheet: WorkbookSheet): string {
  const first = sheet.rows.findIndex((row) => filled(row) > 0)
  if (first < 0) throw new ImportError('no_rows', `The sheet “${sheet.name}” is empty.`)
  const width = sheet.rows.reduce((widest, row) => Math.max(widest, row.length), 0)
  const rows = sheet.rows
    .slice(first)
    .map((row) => (row.length < width ? [...row, ...Array<string>(width - row.length).fill('')] : row))
  return Papa.unparse(rows, { newline: '\r\n', escapeFormulae: false })
}
