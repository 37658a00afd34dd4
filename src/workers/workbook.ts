import { importProblem, type ImportProblem } from '@domain/read/errors'
import { chooseSheet, findSheet, sheetCsv, summarize, Workbook } from '@domain/read/workbook'
import type { FromWorkbookWorker, ToWorkbookWorker } from './workbook-protocol'

/**
 * Reads an Excel workbook off the page's thread and turns the sheet the user picks into CSV. The
 * sheet is read as a stream and its CSV gathered in pieces into a Blob, which the browser may keep
 * out of the worker's memory: neither the sheet's XML nor its CSV is ever one string.
 */
let book: Workbook | null = null

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
    } else if (book) {
      const name = findSheet(
        book.sheets.map((sheet) => sheet.name),
        message.sheet,
      )
      const encoder = new TextEncoder()
      const pieces: BlobPart[] = []
      const csv = sheetCsv(book, name)
      let next = await csv.next()
      for (; !next.done; next = await csv.next()) pieces.push(encoder.encode(next.value))
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
