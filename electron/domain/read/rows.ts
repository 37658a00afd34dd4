import Papa from 'papaparse'
import { ImportError } from './errors'

export interface ParsedRow {
  cells: string[]
  /** 1-based line of the file where the row starts. */
  line: number
  /**
   * 1-based number of the row among the file's rows, blank ones counted: the row's number in a
   * spreadsheet program (a quoted cell's line breaks make one row of several lines).
   */
  record: number
}

/**
 * A text without a quote (`RowReader.pushPlain`): `text.slice(0, end)` is whole rows, one a line,
 * each ended by `\n` (the file's last maybe not); `line` is the file's line at which it starts.
 */
export interface PlainText {
  text: string
  end: number
  line: number
  /** The row number of the text's first line (`ParsedRow.record`): one row a line from there. */
  record: number
}

export const readerLimits = {
  /** A row still open after this many characters is an unclosed quote or not a list at all. */
  maxPendingChars: 4_000_000,
}

/**
 * Cuts decoded text into rows as it arrives, whatever the chunk boundaries. PapaParse does the
 * quoting; this keeps the unfinished last row for the next chunk, unifies line endings (CRLF, CR)
 * and counts lines so every message can say where. A text without a quote can be handed back whole
 * (`pushPlain`) for the caller to cut.
 */
export class RowReader {
  private pending = ''
  private pendingLine = 1
  private pendingRecord = 1
  private heldCarriageReturn = false
  private readonly parser: Papa.Parser
  private readonly delimiter: string
  /** Lines of rows where a quote inside a quoted field was not doubled. */
  readonly strayQuoteLines: number[] = []
  strayQuotes = 0

  constructor(delimiter: string) {
    this.delimiter = delimiter
    this.parser = new Papa.Parser({ delimiter, newline: '\n', quoteChar: '"' })
  }

  push(text: string, last = false): ParsedRow[] {
    const input = this.input(text, last)
    return input === '' ? [] : this.parse(input, last)
  }

  /**
   * As `push`, but a text without a quote comes back whole (`PlainText`): its rows are its lines and
   * their cells what the delimiter cuts, for the caller to find without PapaParse making a string
   * of each. The caller then counts the lines it read (`countLines`).
   */
  pushPlain(text: string, last = false): PlainText | ParsedRow[] {
    const input = this.input(text, last)
    if (input === '') return []
    if (input.includes('"')) return this.parse(input, last)
    const end = last ? input.length : input.lastIndexOf('\n') + 1
    this.pending = last ? '' : input.slice(end)
    return { text: input, end, line: this.pendingLine, record: this.pendingRecord }
  }

  /**
   * Lines read from a `PlainText`: the row held for the next text starts that many lines on (and is
   * refused here if it is already too long).
   */
  countLines(lines: number): void {
    this.keep(this.pending, lines, lines)
  }

  /**
   * The text to parse next: what was held of the last, then `text`, the line breaks between rows
   * made `\n` (`unifyLineBreaks`). The held row is parsed again from its start with the new text.
   */
  private input(text: string, last: boolean): string {
    let chunk = this.heldCarriageReturn ? '\r' + text : text
    this.heldCarriageReturn = !last && chunk.endsWith('\r')
    if (this.heldCarriageReturn) chunk = chunk.slice(0, -1)
    if (!chunk.includes('\r')) return this.pending + chunk
    return unifyLineBreaks(this.pending + chunk, this.delimiter)
  }

  private parse(input: string, last: boolean): ParsedRow[] {
    const result = this.parser.parse(input, 0, !last) as {
      data: string[][]
      errors: { code: string; row: number }[]
      meta: { cursor: number }
    }
    const rows: ParsedRow[] = []
    let line = this.pendingLine
    const startLines: number[] = []
    // Only a quoted cell holds a line break: without a quote, each row is one line, and its cells
    // need not be searched for one.
    const oneLineEach = !input.includes('"')
    for (const cells of result.data) {
      startLines.push(line)
      line += oneLineEach ? 1 : 1 + embeddedNewlines(cells)
      if (!isBlank(cells)) {
        const record = this.pendingRecord + startLines.length - 1
        rows.push({ cells, line: startLines[startLines.length - 1]!, record })
      }
    }
    for (const error of result.errors) {
      if (error.code === 'MissingQuotes') {
        throw new ImportError(
          'unterminated_quote',
          `A quoted field that starts on line ${startLines[error.row] ?? line} is never closed: a " is missing.`,
          startLines[error.row] ?? line,
        )
      }
      if (error.code === 'InvalidQuotes' && error.row < result.data.length) {
        this.strayQuotes++
        if (this.strayQuoteLines.length < 5) this.strayQuoteLines.push(startLines[error.row]!)
      }
    }
    this.keep(last ? '' : input.slice(result.meta.cursor), line - this.pendingLine, result.data.length)
    return rows
  }

  /**
   * Holds the unfinished last row for the next text, `lines` and `records` on from the last; one that
   * grows without end is refused.
   */
  private keep(pending: string, lines: number, records: number): void {
    this.pending = pending
    this.pendingLine += lines
    this.pendingRecord += records
    if (this.pending.length > readerLimits.maxPendingChars) this.refuseLongRow()
  }

  private refuseLongRow(): never {
    const megabytes = Math.round(readerLimits.maxPendingChars / 1_000_000)
    if (this.pending.includes('"')) {
      throw new ImportError(
        'unterminated_quote',
        `A quoted field that starts on line ${this.pendingLine} runs on for more than ${megabytes} million characters: a closing " is probably missing.`,
        this.pendingLine,
      )
    }
    throw new ImportError(
      'line_too_long',
      `Line ${this.pendingLine} is longer than ${megabytes} million characters: this does not look like a list of contacts.`,
      this.pendingLine,
    )
  }
}

/** Line breaks inside the cells: `\n`, `\r\n` and a lone `\r` each end a line of the file. */
function embeddedNewlines(cells: string[]): number {
  let count = 0
  for (const cell of cells) {
    for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) count++
    for (let at = cell.indexOf('\r'); at !== -1; at = cell.indexOf('\r', at + 1)) {
      if (cell.charCodeAt(at + 1) !== 10) count++
    }
  }
  return count
}

const quote = 34
const carriageReturn = 13
const lineFeed = 10

/**
 * `text`, which starts at the start of a row, with the line breaks between its rows (CRLF, CR) made
 * `\n`, the one line ending the reader parses with; a line break inside a quoted cell is the cell's
 * own and stays as it is written, CRLF as CRLF. A cell is quoted as PapaParse reads it: it starts
 * with a quote, and its closing quote is followed by spaces and then the delimiter, a line break or
 * the end of the text; a doubled quote is part of the cell. An unclosed cell runs to the end. The
 * text between quoted cells is searched, not walked character by character: most of a file is there.
 */
export function unifyLineBreaks(text: string, delimiter: string): string {
  // Quoted cells that hold a carriage return, as [start, end) pairs: kept as they are.
  const kept: number[] = []
  let nextReturn = text.indexOf('\r')
  let at = 0
  while (nextReturn >= 0 && at < text.length) {
    const open = text.indexOf('"', at)
    if (open < 0) break
    const before = text.charCodeAt(open - 1)
    const startsCell =
      open === 0 ||
      before === lineFeed ||
      before === carriageReturn ||
      text.startsWith(delimiter, open - delimiter.length)
    if (!startsCell) {
      // A quote inside a cell that does not start with one is a character of it, as is any other
      // quote up to the cell's end.
      at = cellEnd(text, open, delimiter)
      continue
    }
    at = closingQuote(text, open, delimiter)
    if (nextReturn < open) nextReturn = text.indexOf('\r', open)
    if (nextReturn >= 0 && nextReturn < at) {
      kept.push(open, at)
      nextReturn = text.indexOf('\r', at)
    }
  }
  if (kept.length === 0) return text.replace(/\r\n?/g, '\n')
  const pieces: string[] = []
  let copied = 0
  for (let index = 0; index < kept.length; index += 2) {
    pieces.push(
      text.slice(copied, kept[index]).replace(/\r\n?/g, '\n'),
      text.slice(kept[index], kept[index + 1]),
    )
    copied = kept[index + 1]!
  }
  pieces.push(text.slice(copied).replace(/\r\n?/g, '\n'))
  return pieces.join('')
}

/** Where the unquoted cell that holds `from` ends: its delimiter or line break, or the end of the text. */
function cellEnd(text: string, from: number, delimiter: string): number {
  let end = text.length
  const cut = text.indexOf(delimiter, from)
  if (cut >= 0) end = cut
  const feed = text.indexOf('\n', from)
  if (feed >= 0 && feed < end) end = feed
  const back = text.indexOf('\r', from)
  return back >= 0 && back < end ? back : end
}

/** Where a quoted cell opened at `open` ends: past its closing quote and the spaces after it. */
function closingQuote(text: string, open: number, delimiter: string): number {
  for (let at = text.indexOf('"', open + 1); at !== -1; at = text.indexOf('"', at + 1)) {
    if (text.charCodeAt(at + 1) === quote) {
      at++
      continue
    }
    let after = at + 1
    while (text[after] === ' ' || text[after] === '\t') after++
    const next = text.charCodeAt(after)
    if (after >= text.length || next === carriageReturn || next === lineFeed) return after
    if (text.startsWith(delimiter, after)) return after
  }
  return text.length
}

export function isBlank(cells: string[]): boolean {
  return cells.every((cell) => cell.trim() === '')
}

/** Parses a decoded sample: `complete` when the sample is the whole file, so its last row counts. */
export function readRows(text: string, delimiter: string, complete: boolean, limit = Infinity): ParsedRow[] {
  const rows = new RowReader(delimiter).push(text, complete)
  return rows.length > limit ? rows.slice(0, limit) : rows
}
