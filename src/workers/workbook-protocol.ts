import type { ImportProblem } from '@domain/read/errors'
import type { SheetSummary, UncomputedFormulas } from '@domain/read/workbook'

/** The workbook worker holds one workbook: it reads it, then hands out its sheets as CSV. */
export type ToWorkbookWorker = { type: 'open'; file: Blob } | { type: 'csv'; sheet: string }

export type FromWorkbookWorker =
  | { type: 'opened'; sheets: SheetSummary[]; chosen: string | null; problem: ImportProblem | null }
  /** The sheet as UTF-8 CSV, and its formulas without a computed value, by column. */
  | { type: 'csv'; file: Blob; uncomputed: [number, UncomputedFormulas][] }
  | { type: 'failed'; error: ImportProblem }
