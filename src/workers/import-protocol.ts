import type { ColumnMapping } from '@/db/records'
import type { ImportProblem } from '@domain/read/errors'
import type { ParseOptions, ParseProgress } from '@domain/read/parse'
import type { ValidationSummary } from '@domain/validation'
import type { ImportedSoFar } from '@/db/lists'
import type { AppendTarget, StoredImport } from '../db/import-rows'

/**
 * Messages between the import workers and the page. An import runs on two threads: both workers
 * parse the same file; the one in the `check` role checks the rows and hands each batch's issues to
 * the one in the `store` role (by `peer`), which stores the rows with them and reports to the page.
 * A `store` worker without a peer checks the rows itself.
 */
export type ToWorker =
  | {
      type: 'start'
      role: 'store' | 'check'
      file: Blob
      options: ParseOptions
      listId: string
      mapping: ColumnMapping
      /** An interrupted import taken up again: what it stored before it stopped. */
      resume?: ImportedSoFar
      /**
       * Rows of another file added to the list: checked by the store worker alone, against the
       * list's own rows, which it reads first; a check worker has nothing to do.
       */
      append?: AppendTarget
      /** A port to the library worker, to check rows against the library's people there. */
      library?: MessagePort
      /** The other worker of the import: the store worker's port to its checks, or the check worker's to the store. */
      peer?: MessagePort
    }
  | { type: 'cancel' }
  /**
   * Sent as the workers are made, while the preview shows: the file's first slice read as the run
   * will read it, and nothing kept (`rehearseImport`). Stopped between two of its batches by the
   * run's start, or by another rehearsal (the preview changed).
   */
  | ({ type: 'rehearse' } & Rehearsal)

/** The file an import will read, as the preview reads it: what a rehearsal needs. */
export interface Rehearsal {
  file: Blob
  options: ParseOptions
  mapping: ColumnMapping
}

export type FromWorker =
  | { type: 'progress'; progress: ParseProgress }
  | { type: 'done'; result: StoredImport }
  | { type: 'failed'; error: ImportProblem }
  | { type: 'cancelled' }

/**
 * From the check worker to the store worker of the same import, in the batches' order: each batch's
 * issues (one byte a row, `packIssues`), then the summary of every check, or why the check stopped.
 */
export type CheckAnswer =
  | { type: 'checked'; startIndex: number; issues: Uint8Array }
  | { type: 'summary'; validation: ValidationSummary }
  | { type: 'failed'; error: ImportProblem }
