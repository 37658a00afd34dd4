import { isImportError } from '@domain/read/errors'
import { chooseSheet, readWorkbook, sheetToCsv, summarize, type WorkbookSheet } from '@domain/read/workbook'
import type { FromWorkbookWorker, ToWorkbookWorker, WorkbookFailure } from './workbook-protocol'

/** Reads an Excel workbook off the page's thread and turns the sheet the user picks into CSV. */
let sheets: WorkbookSheet[] = []

const post = (message: FromWorkbookWorker, transfer: Transferable[] = []) =>
  self.postMessage(message, { transfer })

const failure = (error: unknown): WorkbookFailure =>
  isImportError(error)
    ? { code: error.code, message: error.message }
    : { code: 'internal', message: error instanceof Error ? error.message : String(error) }

self.addEventListener('message', (event: MessageEvent<ToWorkbookWorker>) => void answer(event.data))

async function answer(message: ToWorkbookWorker): Promise<void> {
  try {
    if (message.type === 'open') {
      sheets = await readWorkbook(await message.file.arrayBuffer())
      let chosen: string | null = null
      let problem: WorkbookFailure | null = null
      try {
        chosen = chooseSheet(sheets).name
      } catch (error) {
        problem = failure(error)
      }
      post({ type: 'opened', sheets: sheets.map(summarize), chosen, problem })
    } else {
      const bytes = new TextEncoder().encode(sheetToCsv(chooseSheet(sheets, message.sheet))).buffer
      post({ type: 'csv', bytes }, [bytes])
    }
  } catch (error) {
    post({ type: 'failed', error: failure(error) })
  }
}
