import { ref } from 'vue'
import type { ImportedSoFar } from '@/db/lists'
import type { ListRecord } from '@/db/records'
import type { ParseOptions } from '@domain/read/parse'
import {
  rehearseIn,
  spawnImportWorkers,
  startImportWorker,
  terminateImportWorkers,
  type ImportWorkers,
  type WorkerOutcome,
  type WorkerRun,
} from '@/workers/import-client'
import type { Rehearsal } from '@/workers/import-protocol'
import type { AppendTarget } from '@/db/import-rows'

/** A list's file is read again with the options it was first read with. */
const optionsOf = (list: ListRecord): ParseOptions => ({
  encoding: list.source.encoding,
  delimiter: list.source.delimiter,
  hasHeader: list.source.hasHeader,
  ...(list.source.headerRow !== undefined ? { headerRow: list.source.headerRow } : {}),
  width: list.columns.length,
})

/** The import workers, one run at a time, and how far the run has read. */
export function useImportRun() {
  const progress = ref({ bytes: 0, rows: 0 })
  let run: WorkerRun | null = null
  /** Workers spawned ahead of the run (`prepare`), taken by the next `read`. */
  let spare: ImportWorkers | null = null

  /**
   * Spawns the workers of the next run now, while the user looks at the preview: their code loads
   * and their database opens meanwhile (`npm run bench -- --only browser`, the import), and
   * with `rehearsal` they read the file's first slice as the run will (`spawnImportWorkers`), again
   * as the preview changes. Where no worker can be made here, the run makes its own and meets the
   * same failure then.
   */
  function prepare(rehearsal?: Rehearsal): void {
    if (run) return
    if (spare) {
      if (rehearsal) rehearseIn(spare, rehearsal)
      return
    }
    let made: ImportWorkers
    try {
      made = spawnImportWorkers(undefined, undefined, rehearsal)
    } catch {
      return
    }
    // Workers that fail as they load are dropped, not handed to a run that would wait on them: the
    // run then makes its own, and reports the failure as it meets it. A run that takes the workers
    // sets its own handlers.
    const drop = (event: Event): void => {
      event.preventDefault()
      terminateImportWorkers(made)
      if (spare === made) spare = null
    }
    made.store.onerror = drop
    if (made.check) made.check.onerror = drop
    spare = made
  }

  /** Ends the spare workers: the dialog closed without an import. */
  function release(): void {
    if (spare) terminateImportWorkers(spare)
    spare = null
  }

  /**
   * Reads, checks and stores `readable` into the list in the import workers; with `soFar`, the rows
   * stored before are checked again but not written twice; with `append`, the file is another one
   * read as its preview read it, its rows added after the list's. Resolves with how the run ended.
   */
  async function read(
    list: ListRecord,
    readable: File,
    soFar?: ImportedSoFar,
    append?: { options: ParseOptions; target: AppendTarget },
  ): Promise<WorkerOutcome> {
    progress.value = { bytes: 0, rows: 0 }
    const ready = spare ?? undefined
    spare = null
    run = startImportWorker(
      {
        type: 'start',
        file: readable,
        listId: list.id,
        mapping: list.mapping,
        options: append?.options ?? optionsOf(list),
        ...(soFar ? { resume: soFar } : {}),
        ...(append ? { append: append.target } : {}),
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
