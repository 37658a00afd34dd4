import type { BlockRange } from '@/db/blocks'
import type { RowQuery } from '@/db/rows'
import type { ExportFormat } from '@/db/export-file'
import type { LibraryExportRequest, LibraryShare } from '@/db/library-export-columns'
import type { ListRecord } from '@/db/records'
import type { CsvFor } from '@domain/export/csv'

/** Messages between an export worker and the page. */
export type ToExportWorker = ListExportMessage | LibraryExportMessage

/** A list's rows. */
export interface ListExportMessage {
  list: ListRecord
  format: ExportFormat
  csvFor?: CsvFor
  filters?: RowQuery['filters']
  /** CSV and JSON: the blocks this worker writes (all when none), a part of the file the page joins. */
  range?: BlockRange
}

/** The library's people or companies a search shows. */
export interface LibraryExportMessage {
  library: LibraryExportRequest
  /** CSV and JSON of people: this worker's share of them (all when none), a part the page joins. */
  share?: LibraryShare
}

export type FromExportWorker =
  | { type: 'progress'; written: number }
  /** `blob`: the part (CSV, JSON) or the whole file (xlsx); `cut`: cells cut to fit Excel. */
  | { type: 'done'; blob: Blob; rows: number; cut: number }
  | { type: 'failed'; message: string }
