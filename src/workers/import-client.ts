import type { FromWorker, Rehearsal, ToWorker } from './import-protocol'
import type { ParseProgress } from '@domain/read/parse'
import type { ImportProblem } from '@domain/read/errors'
import { libraryPort } from '@/db/library-client'

export type WorkerOutcome = Exclude<FromWorker, { type: 'progress' }>

export interface WorkerRun {
  outcome: Promise<WorkerOutcome>
  /** Asks the workers to stop at their next batch; `outcome` then settles as `cancelled`. */
  cancel(): void
}

/**
 * The workers of an import: `store` parses the file and stores its rows, `check` parses it too and
 * checks the rows for `store` (`import-protocol.ts`). Without `check` (one worker on this computer,
 * `importWorkerCount`, or none more could be made), `store` checks the rows itself.
 */
export interface ImportWorkers {
  store: Worker
  check: Worker | null
}

const spawnOne = (): Worker => new Worker(new URL('./list-import.ts', import.meta.url), { type: 'module' })

/**
 * Workers an import runs on: two, one checking and one storing, where the computer has four cores
 * or more; else one. Both workers parse the file, so two spend more work in all for less time, which
 * needs cores to spare: the page and IndexedDB's own thread work beside them. On two cores a second
 * worker is no faster and takes the page's core, lengthening its tasks through the dialog. The
 * browser bench runs the import on both counts (`pipeline on one worker` / `on two workers`) and
 * times the dialog's longest main-thread task.
 */
export function importWorkerCount(
  cores: number | undefined = globalThis.navigator?.hardwareConcurrency,
): 1 | 2 {
  return (cores ?? 1) >= 4 ? 2 : 1
}

/**
 * Import workers ahead of their run: their code loads and their database opens while the user looks
 * at the preview, so the run starts at once when they choose to import; with `rehearsal`, each also
 * reads the file's first slice as the run will, to have its code optimised by then (`rehearseImport`).
 */
export function spawnImportWorkers(
  spawn: () => Worker = spawnOne,
  count = importWorkerCount(),
  rehearsal?: Rehearsal,
): ImportWorkers {
  const store = spawn()
  let check: Worker | null = null
  if (count === 2) {
    try {
      check = spawn()
    } catch {
      // One thread does both.
    }
  }
  const workers = { store, check }
  if (rehearsal) rehearseIn(workers, rehearsal)
  return workers
}

/**
 * Has workers made ahead read the file's first slice as the run will (`rehearseImport`), again when
 * the preview changed (its options, another sheet): a rehearsal under way stops for the new one.
 */
export function rehearseIn(workers: ImportWorkers, rehearsal: Rehearsal): void {
  const message: ToWorker = { type: 'rehearse', ...rehearsal }
  for (const worker of [workers.store, workers.check]) {
    try {
      worker?.postMessage(message)
    } catch {
      // Only a head start: the run goes on without it.
    }
  }
}

/** Ends both workers of an import. */
export function terminateImportWorkers(workers: ImportWorkers): void {
  workers.store.terminate()
  workers.check?.terminate()
}

/**
 * Starts an import on a file in `workers` (spawned ahead, or new ones); the workers end with the
 * run. The store worker reports the run; a check worker that fails stops it, as failed.
 */
export function startImportWorker(
  start: Omit<Extract<ToWorker, { type: 'start' }>, 'role' | 'peer' | 'library'>,
  onProgress: (progress: ParseProgress) => void,
  workers: ImportWorkers = spawnImportWorkers(),
): WorkerRun {
  const { store, check } = workers
  let checkFailure: ImportProblem | null = null
  const outcome = new Promise<WorkerOutcome>((resolve) => {
    const end = (result: WorkerOutcome): void => {
      terminateImportWorkers(workers)
      resolve(checkFailure && result.type !== 'done' ? { type: 'failed', error: checkFailure } : result)
    }
    store.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data
      if (message.type === 'progress') onProgress(message.progress)
      else end(message)
    }
    store.onerror = (event) => {
      event.preventDefault()
      end({
        type: 'failed',
        error: { code: 'internal', message: event.message || 'The import stopped unexpectedly.' },
      })
    }
    if (check) {
      // The store worker waits on the checks: it is stopped, and its write in flight settles, before
      // the run reports the failure.
      check.onerror = (event) => {
        event.preventDefault()
        checkFailure = { code: 'internal', message: event.message || 'The import stopped unexpectedly.' }
        store.postMessage({ type: 'cancel' } satisfies ToWorker)
      }
    }
  })
  const library = libraryPort()
  const transfer = (port: MessagePort | undefined): Transferable[] => (port ? [port] : [])
  if (check) {
    const { port1, port2 } = new MessageChannel()
    check.postMessage({ ...start, role: 'check', peer: port1, library } satisfies ToWorker, [
      port1,
      ...transfer(library),
    ])
    store.postMessage({ ...start, role: 'store', peer: port2 } satisfies ToWorker, [port2])
  } else store.postMessage({ ...start, role: 'store', library } satisfies ToWorker, transfer(library))
  const cancel = (): void => {
    store.postMessage({ type: 'cancel' } satisfies ToWorker)
    check?.postMessage({ type: 'cancel' } satisfies ToWorker)
  }
  return { outcome, cancel }
}
