import { eachRowPage, type RowQuery } from '@/db/rows'
import type { LeadkeeperDb, ListRecord, RowRecord } from '@/db/schema'
import { listColumns, type ResultColumn } from '@domain/export/columns'
import { csvHeader, csvRow } from '@domain/export/csv'
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

const mimeTypes: Record<ExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

function jsonRecord(columns: ResultColumn[], row: RowRecord): string {
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
 * A list as a file: input columns as imported, enrichment columns appended, rows in import order.
 * Rows stream from the list's blocks a page at a time and each page becomes a Blob of its own, which
 * the browser keeps outside the page's memory: a million-row export holds one page of text at once.
 */
export async function exportList(list: ListRecord, options: ExportOptions): Promise<ExportedFile> {
  const columns = listColumns(list.columns)
  const parts: Blob[] = []
  let rows = 0
  let cut = 0
  const type = mimeTypes[options.format]
  const push = (part: string | Uint8Array<ArrayBuffer>) => parts.push(new Blob([part], { type }))
  const sheet =
    options.format === 'xlsx'
      ? xlsxWriter(
          {
            sheetName: list.name,
            header: columns.map((column) => column.title),
            ...(options.filters ? {} : { rows: list.rowCount }),
          },
          (chunk) => push(chunk as Uint8Array<ArrayBuffer>),
        )
      : null
  if (options.format === 'csv') push(csvHeader(columns))
  else if (options.format === 'json') push('[')
  await eachRowPage(
    list.id,
    { filters: options.filters },
    (page) => {
      if (sheet) {
        for (const row of page) sheet.row(columns.map((column) => column.value(row)))
      } else if (options.format === 'csv') {
        push(page.map((row) => csvRow(columns, row)).join(''))
      } else {
        const records = page.map((row) => jsonRecord(columns, row)).join(',\n')
        push((rows === 0 ? '\n' : ',\n') + records)
      }
      rows += page.length
      options.onProgress?.(rows)
    },
    options.pageSize,
    options.database,
  )
  if (sheet) cut = sheet.end().cut
  if (options.format === 'json') push(rows === 0 ? ']\n' : '\n]\n')
  const blob = new Blob(parts, { type })
  return { blob, fileName: exportFileName(list.name, options.format), rows, cut }
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
