import { ImportError, importProblem, type ImportProblem } from '@domain/read/errors'
import { chooseSheet, findSheet, sheetCsv, summarize, Workbook } from '@domain/read/workbook'
import type { FromWorkbookWorker, ToWorkbookWorker } from './workbook-protocol'

/**
 * Reads an Excel workbook off the page's thread and turns the sheet the user picks into CSV. The
 * sheet is read as a stream and its CSV gathered in pieces into a Blob, which the browser may keep
 * out of the worker's memory: neither the sheet's XML nor its CSV is ever one string.
 */
let book: Workbook | null = null
/** Bytes of a sheet's CSV gathered before they go to a Blob. */
const blobStep = 16 * 1024 * 1024

const post = (message: FromWorkbookWorker) => self.postMessage(message)

self.addEventListener('message', (event: MessageEvent<ToWorkbookWorker>) => void answer(event.data))

async function answer(message: ToWorkbookWorker): Promise<void> {
  try {
    if (message.type === 'open') {
      const opened = await Workbook.open(new Uint8Array(await message.file.arrayBuffer()))
      book = opened
      const sheets = []
      for (const sheet of opened.sheets) sheets.push(await summarize(opened, sheet.name))
      let chosen: string | null = null
      let problem: ImportProblem | null = null
      try {
        chosen = chooseSheet(sheets)
      } catch (error) {
        problem = importProblem(error)
      }
      post({ type: 'opened', sheets, chosen, problem })
    } else {
      // Asked for a sheet of a workbook that did not open: answered, so the page does not wait.
      if (!book) throw new ImportError('workbook', 'The workbook is not open: choose the file again.')
      const name = findSheet(
        book.sheets.map((sheet) => sheet.name),
        message.sheet,
      )
      const encoder = new TextEncoder()
      const pieces: BlobPart[] = []
      let held = 0
      const csv = sheetCsv(book, name)
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
      post({
        type: 'csv',
        file: new Blob(pieces, { type: 'text/csv' }),
        uncomputed: [...next.value.uncomputed],
      })
    }
  } catch (error) {
    post({ type: 'failed', error: importProblem(error) })
  }
}
