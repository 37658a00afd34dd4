import { importProblem, type ImportProblem } from '@domain/read/errors'
import { chooseSheet, readWorkbook, sheetToCsv, summarize, type WorkbookSheet } from '@domain/read/workbook'
import type { FromWorkbookWorker, ToWorkbookWorker } from './workbook-protocol'

/** Reads an Excel workbook off the page's thread and turns the sheet the user picks into CSV. */
let sheets: WorkbookSheet[] = []

const post = (message: FromWorkbookWorker, transfer: Transferable[] = []) =>
  self.postMessage(message, { transfer })

self.addEventListener('message', (event: MessageEvent<ToWorkbookWorker>) => void answer(event.data))

async function answer(message: ToWorkbookWorker): Promise<void> {
  try {
    if (message.type === 'open') {
      sheets = await readWorkbook(await message.file.arrayBuffer())
      let chosen: string | null = null
      let problem: ImportProblem | null = null
      try {
        chosen = chooseSheet(sheets).name
      } catch (error) {
        problem = importProblem(error)
      }
      post({ type: 'opened', sheets: sheets.map(summarize), chosen, problem })
    } else {
      const bytes = new TextEncoder().encode(sheetToCsv(chooseSheet(sheets, message.sheet))).buffer
      post({ type: 'csv', bytes }, [bytes])
    }
  } catch (error) {
    post({ type: 'failed', error: importProblem(error) })
  }
}
