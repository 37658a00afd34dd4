import { ImportError } from './errors'
import { isBlank, RowReader, type ParsedRow, type PlainText } from './rows'

export interface ParseOptions {
  encoding: string
  delimiter: string
  hasHeader: boolean
  /**
   * With a header: its row number (`ParsedRow.record`, a spreadsheet's row number); the rows above
   * it (a title, a note) are left out. Without it, the first row that holds anything.
   */
  headerRow?: number
  /** Cells per row when there is no header (the widest row of the preview); else the header's. */
  width: number
}

export interface RowBatch {
  /** Index of the batch's first row among the file's data rows. */
  startIndex: number
  /**
   * At least `width` cells each; more when a row has filled cells past the header (kept, never cut).
   * With `ParseControl.columns`, a row may hold only those columns' cells, the others left out.
   */
  rows: string[][]
  /** With `ParseControl.keepCells`: every cell of the rows, as blocks store them. */
  cells?: BatchCells
}

/**
 * Every cell of a batch's rows in one text, each cell followed by one character that is not part of
 * it (where the file's text can be kept as it is, the delimiter or line break that ended the cell).
 */
export interface BatchCells {
  text: string
  /** For each row: its number of cells, then each cell's length. */
  layout: Uint32Array
}

export interface ParseProgress {
  bytes: number
  rows: number
}

export interface RaggedSummary {
  /** Rows with fewer cells than the header, padded with empty cells. */
  short: number
  /** Rows with more filled cells than the header; the extra cells are kept in columns named by position. */
  long: number
  examples: { line: number; cells: number }[]
}

export interface ParseSummary {
  rows: number
  bytes: number
  width: number
  /** Cells of the widest row: past `width`, columns that only some rows fill ("Column 6"…). */
  widest: number
  header: string[] | null
  ragged: RaggedSummary
  strayQuotes: { count: number; lines: number[] }
}

export interface ParseControl {
  signal?: AbortSignal
  onProgress?: (progress: ParseProgress) => void
  batchSize?: number
  /**
   * Only these columns' cells need be strings in a batch's rows (a check reads the mapped ones):
   * where the file holds no quote, the others are not cut from its text.
   */
  columns?: readonly number[]
  /** Each batch also carries every cell of its rows (`BatchCells`), as an import stores them. */
  keepCells?: boolean
  /**
   * `false`: every text through PapaParse, even one without a quote; the reading the cutting of
   * plain lines is tested against.
   */
  plainLines?: boolean
}

/** Past this many columns a header is more likely cut at the wrong delimiter than a list. */
export const parseLimits = { maxColumns: 10_000 }

/**
 * The whole import pipeline short of storage: bytes in any chunking → streaming TextDecoder →
 * rows → batches of rows cut or padded to the header's width. Runs in the import worker and,
 * unchanged, in tests. A text with a quote is read by PapaParse (`RowReader`); one without is cut
 * here at its line breaks and delimiters, as PapaParse cuts it, but without making a string of
 * every cell: an import checks a few columns and stores the rest as the file's text
 * (`npm run bench -- --only browser`, the import against raw PapaParse).
 */
export async function parseRows(
  source: AsyncIterable<Uint8Array>,
  options: ParseOptions,
  onBatch: (batch: RowBatch) => Promise<void>,
  control: ParseControl = {},
): Promise<ParseSummary> {
  const decoder = new TextDecoder(options.encoding)
  const reader = new RowReader(options.delimiter)
  // A batch is checked against the library and stored in one transaction: fewer, larger batches
  // mean fewer lookups and commits, up to a point (`npm run bench -- --only browser`, the import).
  const batchSize = control.batchSize ?? 20_000
  const gathered = new Gathering(
    options,
    batchSize,
    control.keepCells ? new CellWriter() : null,
    control.columns ? [...new Set(control.columns)].sort((a, b) => a - b) : null,
  )
  // Lines without a quote are cut here, one character a delimiter (PapaParse's own way with them).
  const delimiter =
    control.plainLines !== false && options.delimiter.length === 1 && !'"\r\n'.includes(options.delimiter)
      ? options.delimiter
      : null
  let bytes = 0

  const flush = async (): Promise<void> => {
    if (gathered.batch.length === 0) return
    throwIfAborted(control.signal)
    await onBatch(gathered.take())
  }

  const take = async (parsed: ParsedRow[]): Promise<void> => {
    for (const one of parsed) {
      gathered.whole(one)
      if (gathered.batch.length >= batchSize) await flush()
    }
  }

  const takePlain = async (plain: PlainText, cut: string): Promise<void> => {
    gathered.begin(plain, cut)
    let at = 0
    do {
      at = gathered.cutLines(at)
      if (gathered.batch.length >= batchSize) {
        gathered.keep(at, true)
        await flush()
      }
    } while (at < plain.end)
    gathered.keep(at, false)
    reader.countLines(gathered.line - plain.line)
  }

  const read = async (text: string, last: boolean): Promise<void> => {
    if (!delimiter) return take(reader.push(text, last))
    const got = reader.pushPlain(text, last)
    if (Array.isArray(got)) await take(got)
    else await takePlain(got, delimiter)
  }

  for await (const chunk of source) {
    throwIfAborted(control.signal)
    bytes += chunk.byteLength
    await read(decoder.decode(chunk, { stream: true }), false)
    control.onProgress?.({ bytes, rows: gathered.rows })
  }
  await read(decoder.decode(), true)
  await flush()
  const { rows, header, width, widest, ragged } = gathered
  control.onProgress?.({ bytes, rows })

  if (bytes === 0 || (rows === 0 && header === null)) throw new ImportError('empty', 'The file is empty.')
  if (rows === 0) throw new ImportError('no_rows', 'The file has a header row but no data rows.')
  return {
    rows,
    bytes,
    width,
    widest: Math.max(width, widest),
    header,
    ragged,
    strayQuotes: { count: reader.strayQuotes, lines: [...reader.strayQuoteLines] },
  }
}

/**
 * The rows read so far: the header, the batch being gathered, and (for a text without a quote)
 * where its cutting stands. The cutting is a loop of its own, with no `await` in it and the rare
 * rows (the header, a row of another width, a blank one) handed to other methods: a new worker
 * optimises it once and early. As one async function, with those rows inline, it is optimised
 * and thrown away again and again on every import (`--trace-opt --trace-deopt` over the bench's
 * import, `npm run bench -- --only browser`).
 */
class Gathering {
  header: string[] | null = null
  width: number
  /** Cells of the widest row fitted (`fit`); rows cut at the header's width are not counted. */
  widest = 0
  /** Data rows so far. */
  rows = 0
  batch: string[][] = []
  readonly ragged: RaggedSummary = { short: 0, long: 0, examples: [] }
  /** The text being cut (`begin`), the part of it that is whole rows, and its delimiter. */
  private text = ''
  private end = 0
  private cut = ','
  private cutCode = 44
  /** The file's line of the next line of the text. */
  line = 0
  /** The row number of the text's first line, less its line: one row a line in a text without a quote. */
  private recordOffset = 0
  /**
   * The next delimiter of the text, carried from line to line, so that a text is searched once
   * whatever its lines hold (lines without one, a list of one column, would each search the rest).
   */
  private nextCut = -1
  /** The rows' text from here goes to `cells` as it is, up to a row that does not (`keep`). */
  private run = 0
  /** Where the cells of the row being cut end. */
  private stops: Int32Array = new Int32Array(64)
  private readonly hasHeader: boolean
  private readonly headerRow: number

  constructor(
    options: ParseOptions,
    private readonly batchSize: number,
    private readonly cells: CellWriter | null,
    /** Only these columns' cells are made strings in a row of the header's width. */
    private readonly picked: readonly number[] | null,
  ) {
    this.width = options.width
    this.hasHeader = options.hasHeader
    this.headerRow = options.hasHeader ? (options.headerRow ?? 1) : 1
  }

  /** The batch gathered, and a new one begun. */
  take(): RowBatch {
    const rows = this.batch
    this.batch = []
    const startIndex = this.rows - rows.length
    return this.cells ? { startIndex, rows, cells: this.cells.take() } : { startIndex, rows }
  }

  /** A row parsed whole (not blank): the header, or a data row fitted to it. */
  whole(parsed: ParsedRow): void {
    if (this.hasHeader && this.header === null) {
      if (parsed.record < this.headerRow) return
      if (parsed.cells.length > parseLimits.maxColumns) {
        throw new ImportError(
          'too_many_columns',
          `The header on line ${parsed.line} has ${parsed.cells.length.toLocaleString('en')} columns; more than ${parseLimits.maxColumns.toLocaleString('en')} usually means the wrong delimiter.`,
          parsed.line,
        )
      }
      this.header = parsed.cells
      this.width = this.header.length
      return
    }
    const fitted = fit(parsed, this.width, this.ragged)
    if (fitted.length > this.widest) this.widest = fitted.length
    this.cells?.row(fitted)
    this.batch.push(fitted)
    this.rows++
  }

  /** A text without a quote to cut (`RowReader.pushPlain`), with its delimiter. */
  begin({ text, end, line, record }: PlainText, cut: string): void {
    this.text = text
    this.end = end
    this.line = line
    this.recordOffset = record - line
    this.cut = cut
    this.cutCode = cut.charCodeAt(0)
    this.nextCut = text.indexOf(cut)
    this.run = 0
  }

  /**
   * The rows of the text's lines from `at`, until its end, a full batch or a line cut whole: where
   * the next line starts. A line of the header's width that starts with a character past the space
   * (no blank or white row) keeps its cells where they are in the text (only `picked` ones made
   * strings); any other line is cut whole and fitted (`irregular`), and the cutting returns after it.
   */
  cutLines(at: number): number {
    const { text, end, cut, cutCode, width, picked, cells } = this
    const ready = this.header !== null || !this.hasHeader
    let nextCut = this.nextCut
    while (at < end) {
      let lineEnd = text.indexOf('\n', at)
      if (lineEnd < 0 || lineEnd >= end) lineEnd = end
      let stops = this.stops
      let count = 0
      while (nextCut !== -1 && nextCut < lineEnd) {
        if (count === stops.length) stops = this.growStops()
        stops[count++] = nextCut
        nextCut = text.indexOf(cut, nextCut + 1)
      }
      if (count === stops.length) stops = this.growStops()
      stops[count++] = lineEnd
      const first = at < lineEnd ? text.charCodeAt(at) : 0
      if (ready && count === width && first > 32 && first < 127 && first !== cutCode) {
        this.batch.push(picked ? pick(text, at, stops, count, picked) : text.slice(at, lineEnd).split(cut))
        if (cells) cells.stops(stops, count, at)
        this.rows++
        at = lineEnd + 1
      } else {
        this.nextCut = nextCut
        at = this.irregular(at, lineEnd)
        // The header may have come: rows of its width are now plain.
        return at
      }
      this.line++
      if (this.batch.length >= this.batchSize) break
    }
    this.nextCut = nextCut
    return at
  }

  /** A line `cutLines` does not keep as it is: cut whole, and the header, fitted or passed over. */
  private irregular(at: number, lineEnd: number): number {
    this.keep(at, false)
    this.run = lineEnd + 1
    const all = this.text.slice(at, lineEnd).split(this.cut)
    if (!isBlank(all)) this.whole({ cells: all, line: this.line, record: this.line + this.recordOffset })
    this.line++
    return lineEnd + 1
  }

  /**
   * The rows' text up to `to` goes to `cells` as it is; `all` when a batch ends there. The file's
   * last row may have no line break after it: its last cell is given one.
   */
  keep(to: number, all: boolean): void {
    const { text, run } = this
    if (to > run) this.cells?.piece(to > text.length ? text.slice(run) + '\n' : text.slice(run, to))
    if (all) this.run = to
  }

  private growStops(): Int32Array {
    const grown = new Int32Array(this.stops.length * 2)
    grown.set(this.stops)
    this.stops = grown
    return grown
  }
}

/** A row's `picked` cells, cut from `text` where its cells end (`stops`); the others left out. */
function pick(
  text: string,
  from: number,
  stops: Int32Array,
  count: number,
  picked: readonly number[],
): string[] {
  const out = new Array<string>(count)
  for (const column of picked) {
    if (column >= count) break
    out[column] = text.slice(column === 0 ? from : stops[column - 1]! + 1, stops[column])
  }
  return out
}

/** The cells of a batch's rows as they are gathered (`BatchCells`). */
class CellWriter {
  private pieces: string[] = []
  layout: Uint32Array = new Uint32Array(1 << 16)
  used = 0

  piece(text: string): void {
    if (text !== '') this.pieces.push(text)
  }

  /** Room for `codes` more codes of the layout; the layout to write them in. */
  reserve(codes: number): Uint32Array {
    if (this.used + codes > this.layout.length) {
      const grown = new Uint32Array(Math.max(this.layout.length * 2, this.used + codes))
      grown.set(this.layout.subarray(0, this.used))
      this.layout = grown
    }
    return this.layout
  }

  /** A row whose text is kept as the file has it: its cells end at `stops` (the first starts at `from`). */
  stops(stops: Int32Array, count: number, from: number): void {
    const layout = this.reserve(1 + count)
    let code = this.used
    layout[code++] = count
    for (let c = 0; c < count; c++) {
      layout[code++] = stops[c]! - from
      from = stops[c]! + 1
    }
    this.used = code
  }

  /** A row whose text is not kept as the file has it: its cells, each followed by a line break. */
  row(values: readonly string[]): void {
    const layout = this.reserve(1 + values.length)
    layout[this.used++] = values.length
    for (const value of values) layout[this.used++] = value.length
    this.pieces.push(values.join('\n') + '\n')
  }

  take(): BatchCells {
    const taken = { text: this.pieces.join(''), layout: this.layout.slice(0, this.used) }
    this.pieces = []
    this.used = 0
    return taken
  }
}

function fit(row: ParsedRow, width: number, ragged: RaggedSummary): string[] {
  const { cells } = row
  if (cells.length === width) return cells
  if (cells.length < width) {
    ragged.short++
    note(ragged, row)
    return cells.concat(Array<string>(width - cells.length).fill(''))
  }
  // Trailing empty cells (a delimiter at the end of each line) lose nothing when dropped; filled
  // cells past the header are kept, never cut.
  let end = cells.length
  while (end > width && cells[end - 1]!.trim() === '') end--
  if (end > width) {
    ragged.long++
    note(ragged, row)
  }
  return end === cells.length ? cells : cells.slice(0, end)
}

function note(ragged: RaggedSummary, row: ParsedRow): void {
  if (ragged.examples.length < 5) ragged.examples.push({ line: row.line, cells: row.cells.length })
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ImportError('cancelled', 'The import was cancelled.')
}

/**
 * A file read in slices, so a 1 GB file never sits in memory at once. The next slice is read while
 * the caller works on this one: a slice's read is a round trip to the browser's process, which the
 * import otherwise stood waiting for, slice after slice.
 */
export async function* blobChunks(blob: Blob, chunkSize = 1 << 20): AsyncGenerator<Uint8Array> {
  const read = (start: number): Promise<ArrayBuffer> => {
    const reading = blob.slice(start, start + chunkSize).arrayBuffer()
    // Awaited below; a caller that stops first (a failure, a cancel) leaves it unawaited, and its
    // failure unreported rather than unhandled.
    reading.catch(() => undefined)
    return reading
  }
  let next = blob.size > 0 ? read(0) : null
  for (let start = 0; next; start += chunkSize) {
    const chunk = await next
    next = start + chunkSize < blob.size ? read(start + chunkSize) : null
    yield new Uint8Array(chunk)
  }
}
