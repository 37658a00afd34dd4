import type { ListRow } from '../row'
import { inputText, resultText, type ResultColumn } from './columns'

/** The byte-order mark that makes spreadsheet programs read a CSV file as UTF-8. */
export const bom = '\uFEFF'

/**
 * Whom a CSV export is for. A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` as a
 * formula (CSV injection), so for one such cells get a leading apostrophe, which spreadsheets show
 * as text and hide. Another system (a CRM, a mailing tool) takes the apostrophe for part of the value
 * ("'+44 20 …"), so for importing the values are written as they are. Either way a plain number
 * (-1200.5) is written as it is: a spreadsheet reads it as that number.
 */
export type CsvFor = 'spreadsheet' | 'import'

const formulaStart = /^[=+\-@\t\r\n]/
const plainNumber = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/

export function neutralise(value: string): string {
  return formulaStart.test(value) && !plainNumber.test(value) ? `'${value}` : value
}

/** A cell that is neither a formula nor needs quotes is written as it is: most cells, in one test. */
const needsCare = /^[=+\-@\t\r\n]|[",\r\n]/
const needsQuotes = /[",\r\n]/

/** One cell for a spreadsheet: quoted where needed, a formula neutralised. */
export function csvCell(value: string): string {
  if (value === '' || !needsCare.test(value)) return value
  const safe = neutralise(value)
  return needsQuotes.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

/** One cell for another system: quoted where needed, its value as it is. */
export function csvCellAsIs(value: string): string {
  return value !== '' && needsQuotes.test(value) ? `"${value.replace(/"/g, '""')}"` : value
}

const cellWriters: Record<CsvFor, (value: string) => string> = { spreadsheet: csvCell, import: csvCellAsIs }

/** One CSV record with its line ending (CRLF, as RFC 4180 and spreadsheet programs expect). */
export function csvLine(cells: readonly string[], csvFor: CsvFor = 'spreadsheet'): string {
  return cells.map(cellWriters[csvFor]).join(',') + '\r\n'
}

/** The first line of a list's CSV export: the byte-order mark and the column titles. */
export function csvHeader(columns: readonly { title: string }[], csvFor: CsvFor = 'spreadsheet'): string {
  return (
    bom +
    csvLine(
      columns.map((column) => column.title),
      csvFor,
    )
  )
}

/**
 * Rows of a list's CSV export, each line with its ending, as the app and the command line both
 * write them: the cells are the columns' values (`ResultColumn.value`), the input cells and the
 * service's fields read by the functions those values call, without a closure's call a cell: a
 * million-row export writes thirty million of them. A line is its cells joined, and the page its
 * lines joined, each once: a line built up cell by cell is a chain of partial strings that the
 * join must flatten and the collector must free (twice as slow over the bench's enriched rows).
 */
export function csvRows(
  columns: readonly ResultColumn[],
  rows: readonly ListRow[],
  csvFor: CsvFor = 'spreadsheet',
): string {
  if (rows.length === 0) return ''
  const cell = cellWriters[csvFor]
  const count = columns.length
  const inputs = columns.map((column) => column.input ?? -1)
  const fields = columns.map((column) => column.field ?? '')
  const cells = new Array<string>(count)
  const lines = new Array<string>(rows.length)
  for (let at = 0; at < rows.length; at++) {
    const row = rows[at]!
    for (let place = 0; place < count; place++) {
      const input = inputs[place]!
      const field = fields[place]!
      cells[place] = cell(
        input >= 0
          ? inputText(row, input)
          : field !== ''
            ? resultText(row, field)
            : columns[place]!.value(row),
      )
    }
    lines[at] = cells.join(',')
  }
  return lines.join('\r\n') + '\r\n'
}
