import { exportList, exportRows } from '@/db/export-list'
import type { FromExportWorker, ToExportWorker } from '@/workers/export-protocol'

/** Writes a list, or a part of it, to a file off the page's thread (see `export-client.ts`). */
const scope: {
  postMessage(message: FromExportWorker): void
  onmessage: ((event: MessageEvent<ToExportWorker>) => void) | null
} = self
/** Progress is posted at most this often. */
const progressEveryMs = 100
let lastProgressAt = 0

const onProgress = (written: number): void => {
  const now = Date.now()
  if (now - lastProgressAt < progressEveryMs) return
  lastProgressAt = now
  scope.postMessage({ type: 'progress', written })
}

scope.onmessage = async ({ data: { list, format, filters, range } }) => {
  try {
    const options = { ...(filters ? { filters } : {}), onProgress }
    const { blob, rows, cut } =
      format === 'xlsx' || !range
        ? await exportList(list, { ...options, format })
        : { ...(await exportRows(list, { ...options, format }, range)), cut: 0 }
    scope.postMessage({ type: 'done', blob, rows, cut })
  } catch (error) {
    scope.postMessage({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
