import Papa from 'papaparse'
import { ImportError } from './errors'

export interface ParsedRow {
  cells: string[]
  /** 1-based line of the file where the row starts. */
  line: number
}

/**
 * A text without a quote (`RowReader.pushPlain`): `text.slice(0, end)` is whole rows, one a line,
 * each ended by `\n` (the file's last maybe not); `line` is the file's line at which it starts.
 */
export interface PlainText {
  text: string
  end: number
  line: number
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
  private heldCarriageReturn = false
  private readonly parser: Papa.Parser
  /** Lines of rows where a quote inside a quoted field was not doubled. */
  readonly strayQuoteLines: number[] = []
  strayQuotes = 0

  constructor(delimiter: string) {
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
    return { text: input, end, line: this.pendingLine }
  }

  /**
   * Lines read from a `PlainText`: the row held for the next text starts that many lines on (and is
   * refused here if it is already too long).
   */
  countLines(lines: number): void {
    this.keep(this.pending, lines)
  }

  /** The text to parse next: what was held of the last, then `text`, its line breaks made `\n`. */
  private input(text: string, last: boolean): string {
    let chunk = this.heldCarriageReturn ? '\r' + text : text
    this.heldCarriageReturn = !last && chunk.endsWith('\r')
    if (this.heldCarriageReturn) chunk = chunk.slice(0, -1)
    return this.pending + (chunk.includes('\r') ? chunk.replace(/\r\n?/g, '\n') : chunk)
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
      if (!isBlank(cells)) rows.push({ cells, line: startLines[startLines.length - 1]! })
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
    this.keep(last ? '' : input.slice(result.meta.cursor), line - this.pendingLine)
    return rows
  }

  /**
   * Holds the unfinished last row for the next text, `lines` on from the last; one that grows
   * without end is refused.
   */
  private keep(pending: string, lines: number): void {
    this.pending = pending
    this.pendingLine += lines
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

function embeddedNewlines(cells: string[]): number {
  let count = 0
  for (const cell of cells) {
    for (let at = cell.indexOf('\n'); at !== -1; at = cell.indexOf('\n', at + 1)) count++
  }
  return count
}

export function isBlank(cells: string[]): boolean {
  return cells.every((cell) => cell.trim() === '')
}

/** Parses a decoded sample: `complete` when the sample is the whole file, so its last row counts. */
export function readRows(text: string, delimiter: string, complete: boolean, limit = Infinity): ParsedRow[] {
  const rows = new RowReader(delimiter).push(text, complete)
  return rows.length > limit ? rows.slice(0, limit) : rows
}
