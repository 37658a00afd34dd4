import { exportList, exportRows } from '@/db/export-list'
import type { LeadkeeperDb } from '@/db/schema'
import type { FromExportWorker, ToExportWorker } from '@/workers/export-protocol'

/** Progress is posted at most this often. */
const progressEveryMs = 100

/** What the worker does with a request: posts progress, then the file or its part, or why it failed. */
export async function answerExport(
  { list, format, csvFor, filters, range }: ToExportWorker,
  post: (message: FromExportWorker) => void,
  database?: LeadkeeperDb,
): Promise<void> {
  let lastProgressAt = 0
  const onProgress = (written: number): void => {
    const now = Date.now()
    if (now - lastProgressAt < progressEveryMs) return
    lastProgressAt = now
    post({ type: 'progress', written })
  }
  try {
    const options = {
      ...(filters ? { filters } : {}),
      ...(csvFor ? { csvFor } : {}),
      ...(database ? { database } : {}),
      onProgress,
    }
    // An Excel file is one stream, written whole; a CSV or JSON file in parts (the whole list when
    // no range is given) that the page joins.
    const { blob, rows, cut } =
      format === 'xlsx'
        ? await exportList(list, { ...options, format })
        : { ...(await exportRows(list, { ...options, format }, range)), cut: 0 }
    post({ type: 'done', blob, rows, cut })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
