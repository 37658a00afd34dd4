import { ref } from 'vue'
import type { ImportedSoFar } from '@/db/lists'
import type { ListRecord } from '@/db/schema'
import type { ParseOptions } from '@domain/read/parse'
import {
  spawnImportWorker,
  startImportWorker,
  type WorkerOutcome,
  type WorkerRun,
} from '@/workers/import-client'

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
  /** A worker spawned ahead of the run (`prepare`), taken by the next `read`. */
  let spare: Worker | null = null

  /**
   * Spawns the worker of the next run now, while the user looks at the preview: its code loads and
   * its database opens meanwhile (measured: about 0.15 s of a 2 s import of 100,000 rows). Where
   * no worker can be made here, the run makes its own and meets the same failure then.
   */
  function prepare(): void {
    if (spare || run) return
    let made: Worker
    try {
      made = spawnImportWorker()
    } catch {
      return
    }
    // A worker that fails as it loads is dropped, not handed to a run that would wait on it: the
    // run then makes its own, and reports the failure as it meets it. A run that takes the worker
    // sets its own handler.
    made.onerror = (event) => {
      event.preventDefault()
      made.terminate()
      if (spare === made) spare = null
    }
    spare = made
  }

  /** Ends the spare worker: the dialog closed without an import. */
  function release(): void {
    spare?.terminate()
    spare = null
  }

  /**
   * Reads, checks and stores `readable` into the list in the import worker; with `soFar`, the rows
   * stored before are checked again but not written twice. Resolves with how the run ended.
   */
  async function read(list: ListRecord, readable: File, soFar?: ImportedSoFar): Promise<WorkerOutcome> {
    progress.value = { bytes: 0, rows: 0 }
    const ready = spare ?? undefined
    spare = null
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
      ready,
    )
    const outcome = await run.outcome
    run = null
    return outcome
  }

  const running = (): boolean => run !== null

  function cancel(): void {
    run?.cancel()
  }

  return { progress, prepare, release, read, running, cancel }
}
