import { createReadStream, openSync, readFileSync, readSync, closeSync, statSync } from 'node:fs'
import { createHash, type Hash } from 'node:crypto'
import { cellText } from '../domain/export/columns'
import { csvLine } from '../domain/export/csv'
import { isImportError } from '../domain/read/errors'
import { parseRows, type ParseSummary } from '../domain/read/parse'
import { buildPreview, sampleBytes, type PreviewOverrides } from '../domain/read/preview'
import { positionalHeaders, uniqueHeaders } from '../domain/read/sniff'
import {
  chooseSheet,
  findSheet,
  looksLikeWorkbook,
  sheetCsv,
  summarize,
  Workbook,
  formulaNotes,
  type SheetReport,
} from '../domain/read/workbook'
import { writeFileAtomic } from '../engine/jobs/atomic-file'
import { CliError, ExitCode } from './exit-codes'

export interface ListFile {
  /** Column names: the header made unique (extra cells named "Column N"), or "Column 1"… without one. */
  columns: string[]
  rows: string[][]
  encoding: string
  delimiter: string
  hasHeader: boolean
  parse: ParseSummary
  /**
   * The decoded text fed to a hash, followed by the separator `jobIdFrom` puts after each part:
   * the job id goes on from it exactly as when the whole text was its first part, as earlier
   * versions computed it, so a job started by one resumes in the next instead of being paid twice.
   */
  contentHash: Hash
  /** The sheet read, when the file is an Excel workbook. */
  sheet?: string
}

export interface ReadListOptions {
  /** The sheet of a workbook to read; without it, the first that holds a table. */
  sheet?: string
  /** The row that names the columns, by its number in a spreadsheet; the rows above it are left out. */
  headerRow?: number
  /** Told which sheet of a workbook is read, when it was not named, and what reading it found (formulas without a value). */
  note?: (text: string) => void
}

/**
 * Reads a list file the way the app's import does, with the same detection (encoding, delimiter,
 * header) and the same reader, so both faces see the same rows in the same columns.
 */
export async function readList(path: string, options: ReadListOptions = {}): Promise<ListFile> {
  let size: number
  let sample: Uint8Array
  try {
    size = statSync(path).size
    sample = readStart(path, sampleBytes)
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error)
    throw new CliError(`Cannot read ${path} (${reason}).`, ExitCode.usage)
  }
  try {
    if (looksLikeWorkbook(path, sample)) return await readSheet(path, options)
    if (options.sheet !== undefined)
      throw new CliError(`--sheet is for Excel workbooks (.xlsx); ${path} is not one.`, ExitCode.usage)
    return await readText(size <= sampleBytes, sample, () => createReadStream(path), headerOverrides(options))
  } catch (error) {
    if (isImportError(error)) throw new CliError(`${path}: ${error.message}`, ExitCode.usage)
    throw error
  }
}

/**
 * A workbook's sheet, as CSV, through the same reader as any CSV file, with its delimiter (never
 * guessed from the cells). The sheet is read as a stream: its CSV text is made as the reader asks
 * for it, never held whole.
 */
async function readSheet(path: string, options: ReadListOptions): Promise<ListFile> {
  const book = await Workbook.open(readFileSync(path))
  const names = book.sheets.map((sheet) => sheet.name)
  const summaries = async () => {
    const found = []
    for (const one of names) found.push(await summarize(book, one))
    return found
  }
  const name = options.sheet !== undefined ? findSheet(names, options.sheet) : chooseSheet(await summaries())
  if (options.sheet === undefined) {
    const others = names.filter((other) => other !== name).map((other) => `“${other}”`)
    const also = others.length ? `; the workbook also has ${others.join(', ')} (pick one with --sheet)` : ''
    options.note?.(`Reading the sheet “${name}” of ${path}${also}.\n`)
  }
  const csv = sheetCsv(book, name)
  const encoder = new TextEncoder()
  const head: Uint8Array[] = []
  let headBytes = 0
  let report: SheetReport | null = null
  while (headBytes < sampleBytes && !report) {
    const next = await csv.next()
    if (next.done) report = next.value
    else {
      head.push(encoder.encode(next.value))
      headBytes += head[head.length - 1]!.length
    }
  }
  const sample = new Uint8Array(Math.min(headBytes, sampleBytes))
  let at = 0
  for (const piece of head) {
    if (at >= sample.length) break
    sample.set(piece.subarray(0, sample.length - at), at)
    at += Math.min(piece.length, sample.length - at)
  }
  const complete = report !== null && headBytes <= sampleBytes
  const file = await readText(
    complete,
    sample,
    async function* () {
      yield* head
      while (!report) {
        const next = await csv.next()
        if (next.done) report = next.value
        else yield encoder.encode(next.value)
      }
    },
    { encoding: 'utf-8', delimiter: ',', ...headerOverrides(options) },
  )
  const header = file.parse.header ? file.columns : null
  for (const text of formulaNotes((report as SheetReport | null) ?? { uncomputed: new Map() }, header))
    options.note?.(`${path}: ${text}\n`)
  return { ...file, sheet: name }
}

const headerOverrides = (options: ReadListOptions): PreviewOverrides =>
  options.headerRow !== undefined ? { hasHeader: true, headerRow: options.headerRow } : {}

async function readText(
  complete: boolean,
  sample: Uint8Array,
  chunks: () => AsyncIterable<Uint8Array | Buffer>,
  overrides: PreviewOverrides = {},
): Promise<ListFile> {
  const preview = buildPreview(sample, complete, overrides)
  const rows: string[][] = []
  const hash = createHash('sha256')
  const decoder = new TextDecoder(preview.encoding)
  const parse = await parseRows(
    hashing(chunks(), (chunk) => hash.update(decoder.decode(chunk, { stream: true }))),
    {
      encoding: preview.encoding,
      delimiter: preview.delimiter,
      hasHeader: preview.hasHeader,
      ...(preview.headerRow !== undefined ? { headerRow: preview.headerRow } : {}),
      width: preview.columns.length,
    },
    async (batch) => {
      for (const row of batch.rows) rows.push(row)
    },
  )
  hash.update(decoder.decode()).update('\0')
  const named = parse.header ? uniqueHeaders(parse.header, parse.widest) : positionalHeaders(parse.widest)
  return {
    columns: named,
    rows,
    encoding: preview.encoding,
    delimiter: preview.delimiter,
    hasHeader: preview.hasHeader,
    parse,
    contentHash: hash,
  }
}

function readStart(path: string, bytes: number): Uint8Array {
  const fd = openSync(path, 'r')
  try {
    const buffer = Buffer.alloc(bytes)
    const read = readSync(fd, buffer, 0, bytes, 0)
    return new Uint8Array(buffer.buffer, buffer.byteOffset, read)
  } finally {
    closeSync(fd)
  }
}

async function* hashing(
  stream: AsyncIterable<Uint8Array | Buffer>,
  onChunk: (chunk: Uint8Array) => void,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of stream) {
    const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength)
    onChunk(bytes)
    yield bytes
  }
}

/** Writes search results: UTF-8 with a BOM, CRLF, formulas neutralised (the export's own escaping). */
export function writeCsv(path: string, headers: string[], rows: Record<string, unknown>[]): void {
  const lines = rows.map((row) => csvLine(headers.map((header) => cellText(row[header]))))
  writeFileAtomic(path, '\ufeff' + csvLine(headers) + lines.join(''))
}
