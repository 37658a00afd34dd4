import type { FromWorker, ToWorker } from './import-protocol'
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
 * The two workers of an import: `store` parses the file and stores its rows, `check` parses it
 * too and checks the rows for `store` (`import-protocol.ts`). Without `check` (none could be made),
 * `store` checks the rows itself.
 */
export interface ImportWorkers {
  store: Worker
  check: Worker | null
}

const spawnOne = (): Worker => new Worker(new URL('./list-import.ts', import.meta.url), { type: 'module' })

/**
 * Import workers with nothing to do yet: their code loads and their database opens while the user
 * looks at the preview, so the run starts at once when they choose to import.
 */
export function spawnImportWorkers(spawn: () => Worker = spawnOne): ImportWorkers {
  const store = spawn()
  let check: Worker | null = null
  try {
    check = spawn()
  } catch {
    // One thread does both.
  }
  return { store, check }
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
