import type { ColumnMapping } from '@/db/schema'
import type { ImportProblem } from '@domain/read/errors'
import type { ParseOptions, ParseProgress } from '@domain/read/parse'
import type { ImportedSoFar } from '@/db/lists'
import type { StoredImport } from '../db/import-rows'

/** Messages between the import worker and the page. */
export type ToWorker =
  | {
      type: 'start'
      file: Blob
      options: ParseOptions
      listId: string
      mapping: ColumnMapping
      /** An interrupted import taken up again: what it stored before it stopped. */
      resume?: ImportedSoFar
      /** A port to the library worker, to check rows against the library's people there. */
      library?: MessagePort
    }
  | { type: 'cancel' }

export type FromWorker =
  | { type: 'progress'; progress: ParseProgress }
  | { type: 'done'; result: StoredImport }
  | { type: 'failed'; error: ImportProblem }
  | { type: 'cancelled' }
