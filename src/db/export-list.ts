import type { BlockRange } from '@/db/blocks'
import { writeExport } from '@/db/export-sink'
import { eachRowPage, type RowQuery } from '@/db/rows'
import type { LeadkeeperDb } from '@/db/schema'
import type { ListRecord, StoredRow } from '@/db/records'
import { listColumns, type ResultColumn } from '@domain/export/columns'
import { csvRows, type CsvFor } from '@domain/export/csv'
import { xlsxWriter } from '@domain/export/xlsx'
import {
  exportFileName,
  joinExport,
  mimeTypes,
  type ExportedFile,
  type ExportedPart,
  type ExportFormat,
} from './export-file'

/**
 * Writing an export: a list's rows as CSV, JSON or an Excel sheet, streamed from its blocks. Run by
 * the export workers (`export-client.ts`); naming, joining and downloading the file is
 * `export-file.ts`.
 */

export interface ExportOptions {
  format: ExportFormat
  /** CSV: for a spreadsheet (formulas neutralised, the default) or for another system (values as they are). */
  csvFor?: CsvFor
  /** The grid's current filter, or nothing for the whole list. */
  filters?: RowQuery['filters']
  /** Called after each page with the rows written so far. */
  onProgress?: (written: number) => void
  /** Rows read from the database at a time. */
  pageSize?: number
  database?: LeadkeeperDb
}

function jsonRecord(columns: ResultColumn[], row: StoredRow): string {
  const record: Record<string, string> = {}
  for (const column of columns) record[column.title] = column.value(row)
  return JSON.stringify(record)
}

/**
 * The rows of a list, of the blocks in `range` if given, as CSV lines or JSON records (joined by
 * ',\n'): the part of a CSV or JSON export between its header or opening bracket and its end. Rows
 * stream from the blocks a page at a time and each page goes to the export's sink (`export-sink.ts`:
 * a file on disk in a worker, a Blob a page elsewhere), never the page's memory: a million-row
 * export holds one page of text at once.
 */
export async function exportRows(
  list: ListRecord,
  options: ExportOptions & { format: 'csv' | 'json' },
  range?: BlockRange,
): Promise<ExportedPart> {
  const columns = listColumns(list.columns)
  let rows = 0
  const { blob } = await writeExport(mimeTypes[options.format], (sink) =>
    eachRowPage(
      list.id,
      { filters: options.filters },
      (page) => {
        sink.write(
          options.format === 'csv'
            ? csvRows(columns, page, options.csvFor)
            : (rows === 0 ? '' : ',\n') + page.map((row) => jsonRecord(columns, row)).join(',\n'),
        )
        rows += page.length
        options.onProgress?.(rows)
      },
      options.pageSize,
      options.database,
      range,
    ),
  )
  return { blob, rows }
}

/**
 * A list as a file: input columns as imported, enrichment columns appended, rows in import order,
 * streamed from its blocks (see `exportRows`), in process. The app exports in workers instead
 * (`export-client.ts`): CSV and JSON with `exportRows` over parts of the blocks, Excel with this.
 */
export async function exportList(list: ListRecord, options: ExportOptions): Promise<ExportedFile> {
  if (options.format !== 'xlsx') {
    const format = options.format
    return joinExport(list, format, [await exportRows(list, { ...options, format })], options.csvFor)
  }
  const columns = listColumns(list.columns)
  let rows = 0
  const { blob, result: cut } = await writeExport(mimeTypes.xlsx, async (sink) => {
    const sheet = xlsxWriter(
      {
        sheetName: list.name,
        header: columns.map((column) => column.title),
        ...(options.filters ? {} : { rows: list.rowCount }),
      },
      (chunk) => sink.write(chunk),
    )
    await eachRowPage(
      list.id,
      { filters: options.filters },
      (page) => {
        for (const row of page) sheet.row(columns.map((column) => column.value(row)))
        rows += page.length
        options.onProgress?.(rows)
      },
      options.pageSize,
      options.database,
    )
    return sheet.end().cut
  })
  return { blob, fileName: exportFileName(list.name, 'xlsx'), rows, cut }
}
