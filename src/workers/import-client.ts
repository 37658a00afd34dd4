import type { FromWorker, ToWorker } from './import-protocol'
import type { ParseProgress } from '@domain/read/parse'
import { libraryPort } from '@/db/library-client'

export type WorkerOutcome = Exclude<FromWorker, { type: 'progress' }>

export interface WorkerRun {
  outcome: Promise<WorkerOutcome>
  /** Asks the worker to stop at its next batch; `outcome` then settles as `cancelled`. */
  cancel(): void
}

/**
 * An import worker with nothing to do yet: its code loads and its database opens while the user
 * looks at the preview, so the run starts at once when they choose to import.
 */
export function spawnImportWorker(): Worker {
  return new Worker(new URL('./list-import.ts', import.meta.url), { type: 'module' })
}

/** Starts the import worker (`worker`, spawned ahead, or a new one) on a file; the worker ends with the run. */
export function startImportWorker(
  start: Extract<ToWorker, { type: 'start' }>,
  onProgress: (progress: ParseProgress) => void,
  worker: Worker = spawnImportWorker(),
): WorkerRun {
  const outcome = new Promise<WorkerOutcome>((resolve) => {
    worker.onmessage = (event: MessageEvent<FromWorker>) => {
      const message = event.data
      if (message.type === 'progress') onProgress(message.progress)
      else {
        worker.terminate()
        resolve(message)
      }
    }
    worker.onerror = (event) => {
      event.preventDefault()
      worker.terminate()
      resolve({
        type: 'failed',
        error: { code: 'internal', message: event.message || 'The import stopped unexpectedly.' },
      })
    }
  })
  const library = libraryPort()
  worker.postMessage({ ...start, library } satisfies ToWorker, library ? [library] : [])
  return { outcome, cancel: () => worker.postMessage({ type: 'cancel' } satisfies ToWorker) }
}
