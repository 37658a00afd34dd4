import type { FromWorkbookWorker, ToWorkbookWorker } from './workbook-protocol'

/** One workbook in its worker: its sheets, each as CSV on request. `close` ends the worker. */
export interface WorkbookReader {
  /** Answers `opened` (the sheets, and the one to read first) or `failed`. */
  opened: Promise<FromWorkbookWorker>
  /** Answers `csv` (the sheet as UTF-8 CSV, and its formulas without a value) or `failed`. */
  csv(sheet: string): Promise<FromWorkbookWorker>
  close(): void
}

export function openWorkbook(file: Blob): WorkbookReader {
  const worker = new Worker(new URL('./workbook.ts', import.meta.url), { type: 'module' })
  /** One question at a time, so each answer is the answer to the question waiting. */
  let waiting: ((message: FromWorkbookWorker) => void) | null = null
  let queue: Promise<unknown> = Promise.resolve()
  worker.onmessage = (event: MessageEvent<FromWorkbookWorker>) => waiting?.(event.data)
  worker.onerror = (event) => {
    event.preventDefault()
    const message = event.message || 'The workbook could not be read.'
    waiting?.({ type: 'failed', error: { code: 'internal', message } })
  }
  const ask = (question: ToWorkbookWorker): Promise<FromWorkbookWorker> => {
    const answer = queue.then(
      () =>
        new Promise<FromWorkbookWorker>((resolve) => {
          waiting = resolve
          worker.postMessage(question)
        }),
    )
    queue = answer
    return answer
  }
  return {
    opened: ask({ type: 'open', file }),
    csv: (sheet) => ask({ type: 'csv', sheet }),
    close: () => worker.terminate(),
  }
}
