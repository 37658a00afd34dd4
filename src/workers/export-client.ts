import { blockSize, type BlockRange } from '@/db/blocks'
import { exportFileName, exportRecordName, joinExport, joinParts, type ExportedFile } from '@/db/export-file'
import type { ExportOptions } from '@/db/export-list'
import { libraryExportTitles, type LibraryExportRequest } from '@/db/library-export-columns'
import { plain } from '@/db/plain'
import type { ListRecord } from '@/db/records'
import type { FromExportWorker, ToExportWorker } from './export-protocol'

/** What an export is asked for: the options of `exportList` a page gives. */
export type ExportRequest = Pick<ExportOptions, 'format' | 'csvFor' | 'filters' | 'onProgress'>

const startWorker = () => new Worker(new URL('./list-export.ts', import.meta.url), { type: 'module' })

/** The blocks of a list in `parts` ranges of about equal size, in order; the last open-ended. */
export function blockRanges(rowCount: number, parts: number): BlockRange[] {
  const blocks = Math.max(1, Math.ceil(rowCount / blockSize))
  const count = Math.max(1, Math.min(parts, blocks))
  return Array.from({ length: count }, (_, at) => ({
    from: Math.floor((blocks * at) / count),
    to: at === count - 1 ? Infinity : Math.floor((blocks * (at + 1)) / count),
  }))
}

/**
 * Workers a CSV or JSON export is written by: two, each half the blocks, where the computer has two
 * cores or more. An export waits mostly on reading its blocks, which each worker does on its own
 * thread, so two are faster than one even on two cores. Their second heap costs memory, which stays
 * within what a million-row export is allowed: the browser bench exports a million enriched rows
 * both ways, alternated (`grid … export to CSV` and `peak renderer RSS (export)`). A worker holds
 * only the blocks it is writing, not its share of the file, which goes to the file as it is made.
 */
export function exportWorkerCount(
  cores: number | undefined = globalThis.navigator?.hardwareConcurrency,
): number {
  return (cores ?? 1) >= 2 ? 2 : 1
}

/** Workers each answering one message: their answers in order, their progress summed. */
async function inWorkers(
  messages: readonly ToExportWorker[],
  start: () => Worker,
  onProgress?: (written: number) => void,
): Promise<Extract<FromExportWorker, { type: 'done' }>[]> {
  const written = messages.map(() => 0)
  const workers: Worker[] = []
  try {
    return await Promise.all(
      messages.map((message, at) => {
        const worker = start()
        workers.push(worker)
        return new Promise<Extract<FromExportWorker, { type: 'done' }>>((resolve, reject) => {
          worker.onmessage = ({ data }: MessageEvent<FromExportWorker>) => {
            if (data.type === 'progress') {
              written[at] = data.written
              onProgress?.(written.reduce((sum, rows) => sum + rows, 0))
            } else if (data.type === 'done') resolve(data)
            else reject(new Error(data.message))
          }
          worker.onerror = (event) => {
            event.preventDefault()
            reject(new Error(event.message || 'The export stopped unexpectedly.'))
          }
          worker.onmessageerror = () => reject(new Error('The export sent back what could not be read.'))
          worker.postMessage(message)
        })
      }),
    )
  } finally {
    for (const worker of workers) worker.terminate()
  }
}

/**
 * A list exported off the page's thread: a CSV or JSON file by `parts` workers, each writing the
 * rows of its share of the blocks, joined in order; an Excel file, one stream, by one worker. Where
 * workers cannot run (unit tests) and none is given, in process. `start` makes a worker running
 * `list-export.ts` (the bench's bundle of it, a test's).
 */
export async function exportInWorkers(
  list: ListRecord,
  request: ExportRequest,
  start?: () => Worker,
  parts = exportWorkerCount(),
): Promise<ExportedFile> {
  const { format, csvFor, filters, onProgress } = request
  // The writer is loaded here only: the page that exports in workers never evaluates it.
  if (!start && typeof Worker !== 'function')
    return (await import('@/db/export-list')).exportList(list, {
      format,
      ...(csvFor ? { csvFor } : {}),
      ...(filters ? { filters } : {}),
      ...(onProgress ? { onProgress } : {}),
    })
  const base: ToExportWorker = {
    list: plain(list),
    format,
    ...(csvFor ? { csvFor } : {}),
    ...(filters ? { filters: plain(filters) } : {}),
  }
  const ranges = format === 'xlsx' ? [undefined] : blockRanges(list.rowCount, parts)
  const answers = await inWorkers(
    ranges.map((range) => ({ ...base, ...(range ? { range } : {}) })),
    start ?? startWorker,
    onProgress,
  )
  const [whole] = answers
  const file: ExportedFile =
    format === 'xlsx'
      ? { blob: whole!.blob, fileName: exportFileName(list.name, format), rows: whole!.rows, cut: whole!.cut }
      : joinExport(list, format, answers, csvFor)
  onProgress?.(file.rows)
  return file
}

/**
 * The library's people or companies a search shows, exported off the page's thread as a list is: a
 * CSV or JSON file of people by `parts` workers, each a share of the people blocks, newest first,
 * joined in order; companies and every Excel file by one worker.
 */
export async function exportLibraryInWorkers(
  request: LibraryExportRequest & Pick<ExportRequest, 'onProgress'>,
  start?: () => Worker,
  parts = exportWorkerCount(),
): Promise<ExportedFile> {
  const { onProgress, ...asked } = request
  const library: LibraryExportRequest = plain(asked)
  if (!start && typeof Worker !== 'function')
    return (await import('@/db/library-export')).exportLibrary(library, onProgress ? { onProgress } : {})
  const format = library.format
  const split = format !== 'xlsx' && library.table === 'contacts' ? parts : 1
  const messages: ToExportWorker[] = Array.from({ length: split }, (_, at) => ({
    library,
    ...(split > 1 ? { share: { at, of: split } } : {}),
  }))
  const answers = await inWorkers(messages, start ?? startWorker, onProgress)
  const [whole] = answers
  const file: ExportedFile =
    format === 'xlsx'
      ? {
          blob: whole!.blob,
          fileName: exportRecordName(library.table, format),
          rows: whole!.rows,
          cut: whole!.cut,
        }
      : joinParts(
          libraryExportTitles(library.table),
          format,
          answers,
          exportRecordName(library.table, format),
        )
  onProgress?.(file.rows)
  return file
}
