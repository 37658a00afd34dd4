import { detectEncoding } from './encoding'
import { ImportError } from './errors'
import { readRows } from './rows'
import { detectDelimiter, detectHeader, positionalHeaders, uniqueHeaders } from './sniff'

export interface PreviewOverrides {
  encoding?: string
  delimiter?: string
  hasHeader?: boolean
}

export interface Preview {
  encoding: string
  detectedEncoding: string
  bom: boolean
  delimiter: string
  hasHeader: boolean
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
/** Bytes read from the start of a file for detection and preview. */
export const sampleBytes = 256 * 1024
const suggestionRows = 200

/** Detects what it is not told from the start of a file (`complete` when that is the whole file). */
export function buildPreview(
  sample: Uint8Array,
  complete: boolean,
  overrides: PreviewOverrides = {},
): Preview {
  const detected = detectEncoding(sample)
  const encoding = overrides.encoding ?? detected.encoding
  const text = new TextDecoder(encoding).decode(sample, { stream: !complete })
  const delimiter = overrides.delimiter ?? detectDelimiter(text, complete)
  const parsed = readRows(text, delimiter, complete, suggestionRows + 1).map((row) => row.cells)
  if (parsed.length === 0) throw new ImportError('empty', 'The file is empty.')
  const hasHeader = overrides.hasHeader ?? detectHeader(parsed)
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
    columns,
    rows: fitted.slice(0, previewRowCount),
    sample: fitted,
    undecodable: text.split('\uFFFD').length - 1,
  }
}
