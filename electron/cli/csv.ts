import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { writeFileAtomic } from '../engine/jobs/atomic-file'
import { CliError, ExitCode } from './exit-codes'

export interface CsvTable {
  headers: string[]
  rows: Record<string, string>[]
  /** The raw bytes' text, part of the job identity. */
  text: string
}

export function readCsv(path: string): CsvTable {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(path))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? 'not valid UTF-8'
    throw new CliError(`Cannot read ${path} (${reason}). Give a UTF-8 CSV file.`, ExitCode.usage)
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (header) => header.trim(),
  })
  const headers = parsed.meta.fields ?? []
  if (headers.length === 0)
    throw new CliError(
      `${path} has no header row. Add one (e.g. first_name,last_name,company_domain).`,
      ExitCode.usage,
    )
  const fatal = parsed.errors.find((error) => error.type === 'Quotes')
  if (fatal)
    throw new CliError(
      `${path}: ${fatal.message} on row ${fatal.row ?? '?'}. Fix the quoting and run again.`,
      ExitCode.usage,
    )
  return { headers, rows: parsed.data, text }
}

/** Cells a spreadsheet would run as a formula get a leading apostrophe. */
const formula = /^[=+\-@\t\r\n]/

export function neutralizeFormula(value: string): string {
  return formula.test(value) ? `'${value}` : value
}

/** Writes UTF-8 with a BOM (so spreadsheet programs detect the encoding), atomically. */
export function writeCsv(path: string, headers: string[], rows: Record<string, unknown>[]): void {
  const data = rows.map((row) =>
    headers.map((header) => {
      const value = row[header]
      if (value === null || value === undefined) return ''
      const text = Array.isArray(value)
        ? value.join(', ')
        : typeof value === 'object'
          ? JSON.stringify(value)
          : String(value)
      return neutralizeFormula(text)
    }),
  )
  writeFileAtomic(path, '\ufeff' + Papa.unparse({ fields: headers, data }, { newline: '\r\n' }) + '\r\n')
}
