import type { ListRecord } from '@/db/records'
import { listColumns } from '@domain/export/columns'
import { csvHeader, type CsvFor } from '@domain/export/csv'

/**
 * An export's file as the page handles it: its name, the joining of the parts the export workers
 * wrote, and its download. Apart from the writing (`export-list.ts`), which the workers run: a page
 * that only names, joins and downloads files does not load the Excel writer and its compressor.
 */

export type ExportFormat = 'csv' | 'json' | 'xlsx'

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

export const mimeTypes: Record<ExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  json: 'application/json;charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

/** 'Trade fair 2026.csv' → 'Trade fair 2026 (enriched).csv', without characters file systems refuse. */
export function exportFileName(listName: string, format: ExportFormat): string {
  const base = [...listName.replace(/\.[a-z0-9]{1,4}$/i, '')]
    .map((char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim()
  return `${base || 'list'} (enriched).${format}`
}

/** An export of the library's people or companies: 'Library contacts.csv'. */
export function exportRecordName(table: 'contacts' | 'companies', format: ExportFormat): string {
  return `Library ${table}.${format}`
}

/** A CSV or JSON export made of parts in the list's order (each from `exportRows`). */
export function joinExport(
  list: ListRecord,
  format: 'csv' | 'json',
  parts: readonly ExportedPart[],
  csvFor?: CsvFor,
): ExportedFile {
  return joinParts(
    listColumns(list.columns).map((column) => column.title),
    format,
    parts,
    exportFileName(list.name, format),
    csvFor,
  )
}

/**
 * A CSV or JSON file of these column titles made of parts in order, each its rows without a header;
 * a CSV's header written for a spreadsheet or for importing (`csvFor`) as its rows were.
 */
export function joinParts(
  titles: readonly string[],
  format: 'csv' | 'json',
  parts: readonly ExportedPart[],
  fileName: string,
  csvFor?: CsvFor,
): ExportedFile {
  const type = mimeTypes[format]
  const filled = parts.filter((part) => part.rows > 0)
  const rows = filled.reduce((sum, part) => sum + part.rows, 0)
  const body: (Blob | string)[] = []
  filled.forEach((part, at) => body.push(...(format === 'json' && at > 0 ? [',\n'] : []), part.blob))
  const whole =
    format === 'csv'
      ? [
          csvHeader(
            titles.map((title) => ({ title })),
            csvFor,
          ),
          ...body,
        ]
      : rows === 0
        ? ['[]\n']
        : ['[\n', ...body, '\n]\n']
  return { blob: new Blob(whole, { type }), fileName, rows, cut: 0 }
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
