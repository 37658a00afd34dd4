import { detectEncoding } from './encoding'
import { ImportError } from './errors'
import { readerLimits, readRows } from './rows'
import { detectDelimiter, detectHeader, positionalHeaders, uniqueHeaders } from './sniff'

export interface PreviewOverrides {
  encoding?: string
  delimiter?: string
  hasHeader?: boolean
  /** The header's row number (`ParsedRow.record`): the rows above it are left out. */
  headerRow?: number
}

export interface Preview {
  encoding: string
  detectedEncoding: string
  bom: boolean
  delimiter: string
  hasHeader: boolean
  /** The header's row number (a spreadsheet's row number); absent without a header. */
  headerRow?: number
  /** The first rows that hold anything, with their numbers: where the header may be chosen. */
  firstRows: { row: number; cells: string[] }[]
  /** Column names: the header made unique, or "Column 1"… without one. */
  columns: string[]
  /** The first data rows, each cut or padded to the columns. */
  rows: string[][]
  /** More data rows from the sample, for mapping suggestions. */
  sample: string[][]
  /** Characters the chosen encoding could not decode: a hint to try another. */
  undecodable: number
}

export const previewRowCount = 20
/** Rows offered as the header: a title and a note or two above a list's header fit. */
export const headerRowChoices = 10
/** Bytes read from the start of a file for detection and preview. */
export const sampleBytes = 256 * 1024
/**
 * When the first sample holds no whole row (a field of megabytes on line 2), the preview reads this
 * much instead: enough to show the first row, or to meet the reader's line limit and say so at once
 * rather than after the whole file is read.
 */
export const longSampleBytes = readerLimits.maxPendingChars + sampleBytes

/** Whether a preview built from `sampleLength` bytes of a `fileSize`-byte file should read the long sample. */
export function wantsLongSample(
  preview: Pick<Preview, 'rows'>,
  sampleLength: number,
  fileSize: number,
): boolean {
  return preview.rows.length === 0 && sampleLength < fileSize && sampleLength < longSampleBytes
}
const suggestionRows = 200

/** Detects what it is not told from the start of a file (`complete` when that is the whole file). */
export function buildPreview(
  sample: Uint8Array,
  complete: boolean,
  overrides: PreviewOverrides = {},
): Preview {
  let detected: ReturnType<typeof detectEncoding>
  try {
    detected = detectEncoding(sample)
  } catch (error) {
    // Told the encoding (a workbook's sheet, made UTF-8 here), no guess about its bytes can refuse it.
    if (!overrides.encoding) throw error
    detected = { encoding: overrides.encoding, bom: false }
  }
  const encoding = overrides.encoding ?? detected.encoding
  const text = new TextDecoder(encoding).decode(sample, { stream: !complete })
  const delimiter = overrides.delimiter ?? detectDelimiter(text, complete)
  const all = readRows(text, delimiter, complete, suggestionRows + headerRowChoices + 1)
  if (all.length === 0) throw new ImportError('empty', 'The file is empty.')
  const firstRows = all.slice(0, headerRowChoices).map((row) => ({ row: row.record, cells: row.cells }))
  const headerAt = overrides.headerRow ?? 1
  const below = all.filter((row) => row.record >= headerAt)
  if (below.length === 0) {
    throw new ImportError(
      'no_rows',
      `The file has no row ${headerAt.toLocaleString('en')} to take as its header; its rows end before.`,
    )
  }
  const parsed = (overrides.headerRow !== undefined && overrides.hasHeader !== false ? below : all)
    .slice(0, suggestionRows + 1)
    .map((row) => row.cells)
  const hasHeader = overrides.hasHeader ?? (overrides.headerRow !== undefined || detectHeader(parsed))
  const headerRow = overrides.headerRow !== undefined ? below[0]!.record : all[0]!.record
  const data = hasHeader ? parsed.slice(1) : parsed
  if (complete && data.length === 0)
    throw new ImportError('no_rows', 'The file has a header row but no data rows.')
  const width = hasHeader ? parsed[0]!.length : Math.max(...data.map((row) => row.length))
  const columns = hasHeader ? uniqueHeaders(parsed[0]!) : positionalHeaders(width)
  const fitted = data.map((row) =>
    row.length >= width ? row.slice(0, width) : row.concat(Array<string>(width - row.length).fill('')),
  )
  return {
    encoding,
    detectedEncoding: detected.encoding,
    bom: detected.bom,
    delimiter,
    hasHeader,
    ...(hasHeader ? { headerRow } : {}),
    firstRows,
    columns,
    rows: fitted.slice(0, previewRowCount),
    sample: fitted,
    undecodable: text.split('\uFFFD').length - 1,
  }
}
