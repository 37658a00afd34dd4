import type { ColumnMapping } from '@/db/schema'
import type { ImportProblem } from '@domain/read/errors'
import type { ParseOptions, ParseProgress } from '@domain/read/parse'
import type { StoredImport } from '../db/import-rows'

/** Messages between the import worker and the page. */
export type ToWorker =
  | { type: 'start'; file: Blob; options: ParseOptions; listId: string; mapping: ColumnMapping }
  | { type: 'cancel' }

export type FromWorker =
  | { type: 'progress'; progress: ParseProgress }
  | { type: 'done'; result: StoredImport }
  | { type: 'failed'; error: ImportProblem }
  | { type: 'cancelled' }
