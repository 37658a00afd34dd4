import { blockSize, type BlockRange } from '@/db/blocks'
import { exportFileName, joinExport, type ExportedFile } from '@/db/export-file'
import type { ExportOptions } from '@/db/export-list'
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
  const written = ranges.map(() => 0)
  const workers: Worker[] = []
  try {
    const answers = await Promise.all(
      ranges.map((range, at) => {
        const worker = (start ?? startWorker)()
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
          worker.postMessage({ ...base, ...(range ? { range } : {}) } satisfies ToExportWorker)
        })
      }),
    )
    const [whole] = answers
    const file: ExportedFile =
      format === 'xlsx'
        ? {
            blob: whole!.blob,
            fileName: exportFileName(list.name, format),
            rows: whole!.rows,
            cut: whole!.cut,
          }
        : joinExport(list, format, answers, csvFor)
    onProgress?.(file.rows)
    return file
  } finally {
    for (const worker of workers) worker.terminate()
  }
}
