import { ref } from 'vue'
import type { ImportedSoFar } from '@/db/lists'
import type { ListRecord } from '@/db/schema'
import type { ParseOptions } from '@domain/read/parse'
import { startImportWorker, type WorkerOutcome, type WorkerRun } from '@/workers/import-client'

/** A list's file is read again with the options it was first read with. */
const optionsOf = (list: ListRecord): ParseOptions => ({
  encoding: list.source.encoding,
  delimiter: list.source.delimiter,
  hasHeader: list.source.hasHeader,
  width: list.columns.length,
})

/** The import worker, one run at a time, and how far the run has read. */
export function useImportRun() {
  const progress = ref({ bytes: 0, rows: 0 })
  let run: WorkerRun | null = null

  /**
   * Reads, checks and stores `readable` into the list in the import worker; with `soFar`, the rows
   * stored before are checked again but not written twice. Resolves with how the run ended.
   */
  async function read(list: ListRecord, readable: File, soFar?: ImportedSoFar): Promise<WorkerOutcome> {
    progress.value = { bytes: 0, rows: 0 }
    run = startImportWorker(
      {
        type: 'start',
        file: readable,
        listId: list.id,
        mapping: list.mapping,
        options: optionsOf(list),
        ...(soFar ? { resume: soFar } : {}),
      },
      (next) => {
        progress.value = next
      },
    )
    const outcome = await run.outcome
    run = null
    return outcome
  }

  const running = (): boolean => run !== null

  function cancel(): void {
    run?.cancel()
  }

  return { progress, read, running, cancel }
}
