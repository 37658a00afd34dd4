import type { FromWorker, ToWorker } from './import-protocol'
import type { ParseProgress } from '@domain/read/parse'
import { libraryPort } from '@/db/library-client'

export type WorkerOutcome = Exclude<FromWorker, { type: 'progress' }>

export interface WorkerRun {
  outcome: Promise<WorkerOutcome>
  /** Asks the worker to stop at its next batch; `outcome` then settles as `cancelled`. */
  cancel(): void
}

/** Starts the import worker on a file; the worker ends with the run. */
export function startImportWorker(
  start: Extract<ToWorker, { type: 'start' }>,
  onProgress: (progress: ParseProgress) => void,
): WorkerRun {
  const worker = new Worker(new URL('./list-import.ts', import.meta.url), { type: 'module' })
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
