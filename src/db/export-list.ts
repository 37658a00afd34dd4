import type { BlockRange } from '@/db/blocks'
import { writeExport } from '@/db/export-sink'
import { eachRowPage, type RowQuery } from '@/db/rows'
import type { LeadkeeperDb, ListRecord, StoredRow } from '@/db/schema'
import { listColumns, type ResultColumn } from '@domain/export/columns'
import { csvHeader, csvRows } from '@domain/export/csv'
import { xlsxWriter } from '@domain/export/xlsx'

export type ExportFormat = 'csv' | 'json' | 'xlsx'

export interface ExportOptions {
  format: ExportFormat
  /** The grid's current filter, or nothing for the whole list. */
  filters?: RowQuery['filters']
  /** Called after each page with the rows written so far. */
  onProgress?: (written: number) => void
  /** Rows read from the database at a time. */
  pageSize?: number
  database?: LeadkeeperDb
}

export interface ExportedFile {
  blob: Blob
  fileName: string
  rows: number
  /** Cells cut to what an Excel cell holds (32,767 characters); 0 for CSV and JSON. */
  cut: number
}

/** Some of a list's rows as the middle of a CSV or JSON export: no header, no brackets. */
export interface ExportedPart {
  blob: Blob
  rows: number
}

const mimeTypes: Record<ExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

function jsonRecord(columns: ResultColumn[], row: StoredRow): string {
  const record: Record<string, string> = {}
  for (const column of columns) record[column.title] = column.value(row)
  return JSON.stringify(record)
}

/** 'Trade fair 2026.csv' → 'Trade fair 2026 (enriched).csv', without characters file systems refuse. */
export function exportFileName(listName: string, format: ExportFormat): string {
  const base = [...listName.replace(/\.[a-z0-9]{1,4}$/i, '')]
    .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim()
  return `${base || 'list'} (enriched).${format}`
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
            ? csvRows(columns, page)
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

/** A CSV or JSON export made of parts in the list's order (each from `exportRows`). */
export function joinExport(
  list: ListRecord,
  format: 'csv' | 'json',
  parts: readonly ExportedPart[],
): ExportedFile {
  const type = mimeTypes[format]
  const filled = parts.filter((part) => part.rows > 0)
  const rows = filled.reduce((sum, part) => sum + part.rows, 0)
  const body: (Blob | string)[] = []
  filled.forEach((part, at) => body.push(...(format === 'json' && at > 0 ? [',\n'] : []), part.blob))
  const whole =
    format === 'csv'
      ? [csvHeader(listColumns(list.columns)), ...body]
      : rows === 0
        ? ['[]\n']
        : ['[\n', ...body, '\n]\n']
  return { blob: new Blob(whole, { type }), fileName: exportFileName(list.name, format), rows, cut: 0 }
}

/**
 * A list as a file: input columns as imported, enrichment columns appended, rows in import order,
 * streamed from its blocks (see `exportRows`), in process. The app exports in workers instead
 * (`export-client.ts`): CSV and JSON with `exportRows` over parts of the blocks, Excel with this.
 */
export async function exportList(list: ListRecord, options: ExportOptions): Promise<ExportedFile> {
  if (options.format !== 'xlsx') {
    const format = options.format
    return joinExport(list, format, [await exportRows(list, { ...options, format })])
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

/** Saves through the browser's download, which Electron's shell also honours. */
export function downloadFile(file: Pick<ExportedFile, 'blob' | 'fileName'>): void {
  const url = URL.createObjectURL(file.blob)
  const link = document.createElement('a')
  link.href = url
  link.download = file.fileName
  link.style.display = 'none'
  document.body.append(link)
  link.click()
  link.remove()
  // The download has taken its copy once the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}
