import type { ImportProblem } from '@domain/read/errors'
import type { SheetSummary } from '@domain/read/workbook'

/** The workbook worker holds one workbook: it reads it, then hands out its sheets as CSV. */
export type ToWorkbookWorker = { type: 'open'; file: Blob } | { type: 'csv'; sheet: string }

export type FromWorkbookWorker =
  | { type: 'opened'; sheets: SheetSummary[]; chosen: string | null; problem: ImportProblem | null }
  /** The sheet as UTF-8 CSV, and what reading it found (formulas without a value). */
  | { type: 'csv'; file: Blob; notes: string[] }
  | { type: 'failed'; error: ImportProblem }
