import { ImportError, importProblem, type ImportProblem } from '@domain/read/errors'
import {
  chooseSheet,
  findSheet,
  sheetCsv,
  SheetTally,
  summarize,
  Workbook,
  type SheetSummary,
  type UncomputedFormulas,
} from '@domain/read/workbook'
import type { FromWorkbookWorker, ToWorkbookWorker } from './workbook-protocol'

/**
 * Reads an Excel workbook off the page's thread and turns the sheet the user picks into CSV. The
 * sheet is read as a stream and its CSV gathered in pieces into a Blob, which the browser may keep
 * out of the worker's memory: neither the sheet's XML nor its CSV is ever one string.
 */
let book: Workbook | null = null
/** The sheet read last as CSV: on opening, the sheet chosen, asked for next. */
let kept: { name: string; file: Blob; uncomputed: [number, UncomputedFormulas][] } | null = null
/** Bytes of a sheet's CSV gathered before they go to a Blob. */
const blobStep = 16 * 1024 * 1024

const post = (message: FromWorkbookWorker) => self.postMessage(message)

self.addEventListener('message', (event: MessageEvent<ToWorkbookWorker>) => void answer(event.data))

async function answer(message: ToWorkbookWorker): Promise<void> {
  try {
    if (message.type === 'open') await open(message.file)
    else {
      // Asked for a sheet of a workbook that did not open: answered, so the page does not wait.
      if (!book) throw new ImportError('workbook', 'The workbook is not open: choose the file again.')
      const name = findSheet(
        book.sheets.map((sheet) => sheet.name),
        message.sheet,
      )
      const read = kept?.name === name ? kept : await readCsv(book, name)
      kept = null
      post({ type: 'csv', file: read.file, uncomputed: read.uncomputed })
    }
  } catch (error) {
    post({ type: 'failed', error: importProblem(error) })
  }
}

/**
 * Summarizes every sheet and chooses one, as `chooseSheet` does (the first that holds a table, else
 * the first that holds a list). Until one holds a table, each sheet is made CSV as it is summarized,
 * so the sheet chosen is read once, not once to be chosen and once more as CSV.
 */
async function open(file: Blob): Promise<void> {
  const opened = await Workbook.open(new Uint8Array(await file.arrayBuffer()))
  book = opened
  const sheets: SheetSummary[] = []
  let table: typeof kept = null
  let list: typeof kept = null
  for (const { name } of opened.sheets) {
    if (table) {
      sheets.push(await summarize(opened, name))
      continue
    }
    const tally = new SheetTally()
    const read = await readCsv(opened, name, tally)
    const summary = tally.summary(name)
    sheets.push(summary)
    if (summary.table) table = read
    else if (summary.list && !list) list = read
  }
  kept = table ?? list
  let problem: ImportProblem | null = null
  try {
    chooseSheet(sheets)
  } catch (error) {
    problem = importProblem(error)
  }
  post({ type: 'opened', sheets, chosen: kept?.name ?? null, problem })
}

async function readCsv(
  from: Workbook,
  name: string,
  tally?: SheetTally,
): Promise<{ name: string; file: Blob; uncomputed: [number, UncomputedFormulas][] }> {
  const encoder = new TextEncoder()
  const pieces: BlobPart[] = []
  let held = 0
  const csv = sheetCsv(from, name, tally)
  let next = await csv.next()
  for (; !next.done; next = await csv.next()) {
    const bytes = encoder.encode(next.value)
    pieces.push(bytes)
    held += bytes.length
    // Handed to the browser's blob store as it grows, which may keep it out of this worker's memory.
    if (held > blobStep) {
      pieces.splice(0, pieces.length, new Blob(pieces))
      held = 0
    }
  }
  return { name, file: new Blob(pieces, { type: 'text/csv' }), uncomputed: [...next.value.uncomputed] }
}
