import { shallowRef } from 'vue'
import type { ImportProblem } from '@domain/read/errors'
import type { SheetSummary, UncomputedFormulas } from '@domain/read/workbook'
import { openWorkbook, type WorkbookReader } from '@/workers/workbook-client'
import { baseName } from './import-defaults'

/** An Excel workbook being imported: its sheets and the one read (as CSV, through the same path). */
export interface WorkbookChoice {
  fileName: string
  size: number
  sheets: SheetSummary[]
  sheet: string | null
  /** The workbook or a sheet is being read. */
  reading: boolean
  /** The sheet's formulas without a computed value, by column, for the preview to name them. */
  uncomputed: [number, UncomputedFormulas][]
}

/** What opening a workbook found: the sheet that holds a list, or (when none does) why not. */
export interface OpenedWorkbook {
  chosen: string | null
  problem: ImportProblem | null
}

const unexpected: ImportProblem = {
  code: 'internal',
  message: 'The workbook worker gave an unexpected answer.',
}

/**
 * The workbook of the current import, read in its worker: a sheet comes back as a CSV file, which
 * is then read as any other file is. Answers for a workbook closed or replaced meanwhile are dropped.
 */
export function useImportWorkbook() {
  const workbook = shallowRef<WorkbookChoice | null>(null)
  let reader: WorkbookReader | null = null

  /** Reads a workbook's sheets; null when it was closed or replaced meanwhile. */
  async function open(next: File): Promise<OpenedWorkbook | null> {
    const opening = openWorkbook(next)
    reader = opening
    workbook.value = {
      fileName: next.name,
      size: next.size,
      sheets: [],
      sheet: null,
      reading: true,
      uncomputed: [],
    }
    const answer = await opening.opened
    if (reader !== opening) return null
    if (answer.type !== 'opened') {
      workbook.value = { ...workbook.value, reading: false }
      return { chosen: null, problem: answer.type === 'failed' ? answer.error : unexpected }
    }
    workbook.value = { ...workbook.value, sheets: answer.sheets, reading: false }
    return { chosen: answer.chosen, problem: answer.problem }
  }

  /**
   * Starts reading one sheet of the open workbook: resolves with it as CSV, or why it cannot be
   * read, or null when the workbook was closed or replaced meanwhile. Null at once when none is open.
   */
  function read(sheet: string): Promise<File | ImportProblem | null> | null {
    const current = reader
    const book = workbook.value
    if (!current || !book) return null
    workbook.value = { ...book, sheet, reading: true, uncomputed: [] }
    return current.csv(sheet).then((answer) => {
      if (reader !== current) return null
      workbook.value = {
        ...book,
        sheet,
        reading: false,
        uncomputed: answer.type === 'csv' ? answer.uncomputed : [],
      }
      if (answer.type !== 'csv') return answer.type === 'failed' ? answer.error : unexpected
      return new File([answer.file], `${baseName(book.fileName)}.csv`, { type: 'text/csv' })
    })
  }

  /** One sheet of a workbook as CSV, read in the workbook's worker; or why it cannot be. */
  async function sheetAsCsv(next: File, sheet: string): Promise<File | ImportProblem> {
    const opening = openWorkbook(next)
    reader = opening
    workbook.value = {
      fileName: next.name,
      size: next.size,
      sheets: [],
      sheet,
      reading: true,
      uncomputed: [],
    }
    const opened = await opening.opened
    if (opened.type !== 'opened') return opened.type === 'failed' ? opened.error : unexpected
    workbook.value = { ...workbook.value, sheets: opened.sheets }
    const answer = await opening.csv(sheet)
    workbook.value = {
      ...workbook.value,
      reading: false,
      uncomputed: answer.type === 'csv' ? answer.uncomputed : [],
    }
    if (answer.type !== 'csv') return answer.type === 'failed' ? answer.error : unexpected
    return new File([answer.file], `${baseName(next.name)}.csv`, { type: 'text/csv' })
  }

  function close(): void {
    reader?.close()
    reader = null
    workbook.value = null
  }

  return { workbook, open, read, sheetAsCsv, close }
}
