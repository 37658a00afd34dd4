/** The byte-order mark that makes spreadsheet programs read a CSV file as UTF-8. */
export const bom = '\uFEFF'

/**
 * A spreadsheet runs a cell starting with one of these as a formula (CSV injection): such cells
 * get a leading apostrophe, which spreadsheets show as text and hide.
 */
const formulaStart = /^[=+\-@\t\r\n]/

export function neutralise(value: string): string {
  return formulaStart.test(value) ? `'${value}` : value
}

/** A cell that is neither a formula nor needs quotes is written as it is: most cells, in one test. */
const needsCare = /^[=+\-@\t\r\n]|[",\r\n]/

export function csvCell(value: string): string {
  if (value === '' || !needsCare.test(value)) return value
  const safe = neutralise(value)
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** One CSV record with its line ending (CRLF, as RFC 4180 and spreadsheet programs expect). */
export function csvLine(cells: readonly string[]): string {
  let line = ''
  for (let at = 0; at < cells.length; at++) line += (at === 0 ? '' : ',') + csvCell(cells[at]!)
  return line + '\r\n'
}

/** The first line of a list's CSV export: the byte-order mark and the column titles. */
export function csvHeader(columns: readonly { title: string }[]): string {
  return bom + csvLine(columns.map((column) => column.title))
}

/** One row of a list's CSV export, as the app and the command line both write it. */
export function csvRow<R>(columns: readonly { value: (row: R) => string }[], row: R): string {
  // A million rows of thirty columns: no array of cells per row, the line is built as it goes.
  let line = ''
  for (let at = 0; at < columns.length; at++) line += (at === 0 ? '' : ',') + csvCell(columns[at]!.value(row))
  return line + '\r\n'
}
