import { exportList, exportRows } from '@/db/export-list'
import { exportLibraryRows, exportLibraryWorkbook } from '@/db/library-export'
import type { LeadkeeperDb } from '@/db/schema'
import type {
  FromExportWorker,
  LibraryExportMessage,
  ListExportMessage,
  ToExportWorker,
} from '@/workers/export-protocol'

/** Progress is posted at most this often. */
const progressEveryMs = 100

/** What the worker does with a request: posts progress, then the file or its part, or why it failed. */
export async function answerExport(
  message: ToExportWorker,
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
    const { blob, rows, cut } =
      'library' in message
        ? await libraryFile(message, onProgress, database)
        : await listFile(message, onProgress, database)
    post({ type: 'done', blob, rows, cut })
  } catch (error) {
    post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}

async function listFile(
  { list, format, csvFor, filters, range }: ListExportMessage,
  onProgress: (written: number) => void,
  database?: LeadkeeperDb,
) {
  const options = {
    ...(filters ? { filters } : {}),
    ...(csvFor ? { csvFor } : {}),
    ...(database ? { database } : {}),
    onProgress,
  }
  // An Excel file is one stream, written whole; a CSV or JSON file in parts (the whole list when
  // no range is given) that the page joins.
  return format === 'xlsx'
    ? exportList(list, { ...options, format })
    : { ...(await exportRows(list, { ...options, format }, range)), cut: 0 }
}

async function libraryFile(
  { library, share }: LibraryExportMessage,
  onProgress: (written: number) => void,
  database?: LeadkeeperDb,
) {
  const options = { ...(database ? { database } : {}), onProgress }
  const format = library.format
  return format === 'xlsx'
    ? exportLibraryWorkbook(library, options)
    : { ...(await exportLibraryRows({ ...library, format }, share, options)), cut: 0 }
}
