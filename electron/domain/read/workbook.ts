/**
 * Excel workbooks (.xlsx) in. A workbook is a ZIP archive of XML parts; each part is inflated and
 * read as a stream (`zip.ts`, `xml.ts`), so a sheet of a million rows is never one string or one
 * tree, and a part that inflates far past its packed size is refused before it fills the memory.
 * One sheet is chosen, and its cells become CSV text, comma-separated and quoted where needed, which
 * the list's one reading path takes with that delimiter (never guessed again: a cell is a cell,
 * "crm;q1;vip" included). Used by the import dialog's worker and by the command line alike.
 *
 * Cells read as the sheet holds them, in a form that a list can match on: text as written; numbers
 * exactly, to Excel's 15 significant digits and in digits, never with an exponent (a phone number
 * stored as a number is not "4.92E+12", 0.0000001 not "1e-7"); dates as ISO 8601 (2024-03-01, or
 * 2024-03-01 13:45 with a time of day, rounded to the second as Excel shows it; a time alone as
 * 13:45); TRUE and FALSE as Excel shows them; a formula as its last computed value (an error value
 * such as #DIV/0! reads as empty). A number's display format (a percentage, a currency) is not
 * applied: 25 % reads as 0.25. A formula the sheet holds no computed value for is counted by column,
 * for the import to say so (`formulaNotes`).
 *
 * An Excel 97–2003 file (.xls) never gets here: the text reader refuses it by its signature, with
 * what to do instead (`encoding.ts`); an OpenDocument spreadsheet is refused by its content,
 * whatever its name (`openDocumentProblem`).
 */
import { ImportError } from './errors'
import { attribute, decodeXml, XmlScanner, type XmlHandler } from './xml'
import { isZip, ZipArchive, type ZipEntry } from './zip'

export interface SheetSummary {
  name: string
  /** The rows under the header that hold anything: what would become the list's rows. */
  rows: number
  columns: number
  /** A header of two or more named columns and at least one row under it. */
  table: boolean
  /** A header of at least one named column and at least one row under it. */
  list: boolean
}

/** A row of a sheet: its number in the sheet (from 1) and its cells as text, a missing cell empty. */
export interface SheetRow {
  row: number
  cells: string[]
}

/** Formulas of one column whose value the sheet does not give. */
export interface UncomputedFormulas {
  /** No value saved with the formula. */
  missing: number
  /** A value saved, by a program that asks for every formula to be computed again on opening. */
  unsure: number
}

export interface SheetReport {
  /** By column (from 0). */
  uncomputed: Map<number, UncomputedFormulas>
}

const broken = (reason: string) =>
  new ImportError('workbook', `This file could not be read as an Excel workbook (${reason}).`)

const openDocument =
  'This file is an OpenDocument spreadsheet (.ods), which cannot be read here. Open it in LibreOffice Calc or Excel and save it as an Excel Workbook (.xlsx) or as CSV.'

/** Whether the bytes start as a workbook (a ZIP archive, as .xlsx files are) and the name says so. */
export function looksLikeWorkbook(name: string, start: Uint8Array): boolean {
  return isZip(start) && /\.(xlsx|xlsm)$/i.test(name)
}

/**
 * Why a file that starts as an OpenDocument file (its first part, stored as is, names its kind)
 * cannot be read, whatever its name; null when it does not start as one.
 */
export function openDocumentProblem(start: Uint8Array): string | null {
  if (!isZip(start) || start.length < 30) return null
  const nameLength = start[26]! | (start[27]! << 8)
  const extraLength = start[28]! | (start[29]! << 8)
  const latin = (from: number, to: number) => String.fromCharCode(...start.subarray(from, to))
  if (latin(30, 30 + nameLength) !== 'mimetype') return null
  const data = 30 + nameLength + extraLength
  const kind = latin(data, Math.min(start.length, data + 60))
  if (kind.startsWith('application/vnd.oasis.opendocument.spreadsheet')) return openDocument
  if (kind.startsWith('application/vnd.oasis.opendocument'))
    return 'This file is an OpenDocument document, not a list. Export the list in it as CSV first.'
  return null
}

const pad = (value: number) => String(value).padStart(2, '0')

/**
 * One cell as text (see the top of this file). Takes `unknown`: a cell's value is a string, a
 * number, a truth value or a Date.
 */
export function sheetCellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (typeof value === 'number') return numberText(value)
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return ''
    // A time of day is a fraction of a day in the file: 13:45 comes back as 13:44:59.999…, which
    // Excel shows rounded to the second, as it is read here.
    const at = new Date(Math.round(value.getTime() / 1000) * 1000)
    const day = `${at.getUTCFullYear()}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}`
    const time = timeText(at)
    return time === '' ? day : `${day} ${time}`
  }
  return String(value)
}

function timeText(at: Date): string {
  const [hours, minutes, seconds] = [at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds()]
  if (hours === 0 && minutes === 0 && seconds === 0) return ''
  return `${pad(hours)}:${pad(minutes)}${seconds ? `:${pad(seconds)}` : ''}`
}

function numberText(value: number): string {
  if (!Number.isFinite(value)) return ''
  if (Number.isInteger(value) && Math.abs(value) < 1e21) return String(value)
  return plainDecimal(String(Number(value.toPrecision(15))))
}

/**
 * A number written out in digits, as a cell shows it and a list can match it: JavaScript writes
 * 0.0000001 as "1e-7" and 10^21 as "1e+21", which no one typed.
 */
function plainDecimal(text: string): string {
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text)
  if (!match) return text
  const [, sign, lead, rest = '', power] = match as unknown as [string, string, string, string, string]
  const digits = lead + rest
  const exponent = Number(power)
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`
  return sign + digits + '0'.repeat(Math.max(0, exponent - rest.length))
}

const dayMs = 86_400_000
/** Day 0 of each date system, in ms since 1970: 1899-12-30 (serials past Excel's 1900-02-29) and 1904-01-01. */
const epoch1900 = Date.UTC(1899, 11, 30)
const epoch1904 = Date.UTC(1904, 0, 1)

/**
 * A date serial as text: a date, a date and a time, or a time of day alone (a serial under 1, day 0
 * of the 1900 system, which no calendar has).
 */
function serialText(serial: number, date1904: boolean): string {
  if (serial < 0 || !Number.isFinite(serial)) return numberText(serial)
  const seconds = Math.round(serial * 86_400)
  if (seconds < 86_400 && !date1904) return timeText(new Date(seconds * 1000)) || '00:00'
  // Excel counts a 29 February 1900 that never was: serials before it are a day later than their count.
  const base = date1904 ? epoch1904 : serial < 60 ? epoch1900 + dayMs : epoch1900
  return sheetCellText(new Date(base + seconds * 1000))
}

/** Excel's built-in number formats that show a date or a time (ids of every locale). */
const builtInDateFormats = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81,
])

const dateTokens = new Set(
  's ss m mm mmm mmmm mmmmm h hh am pm a p d dd ddd dddd aaa aaaa aaaaa y yy yyyy e ee eeee g gg ggg b bb bbbb'.split(
    ' ',
  ),
)

/**
 * Whether a number format shows a date or a time: once its literal text ("…", \x), colours, locales
 * and conditions are taken out, every token left is a date or time token (a format of digits, "0.0%",
 * "#,##0", is not one).
 */
function isDateFormat(code: string): boolean {
  const lower = code.toLowerCase().replace(/;@$/, '').replace(/\\./g, ' ')
  return lower.split(';').some((part) => {
    const tokens = part
      .replace(/"[^"]*"/g, ' ')
      .replace(/(\[?[smhd]{1,2}\]?)[.,]0{1,3}/g, '$1')
      .replace(/\[([smhd]{1,2})\]/g, '$1')
      .replace(/\[[^\]]*\]/g, '')
      .split(/[^a-z0#?%]+/)
      .filter(Boolean)
    return tokens.length > 0 && tokens.every((token) => dateTokens.has(token))
  })
}

/** Text as Excel escapes it in a string: `_x000D_` is a carriage return, `_x005F_` an underscore. */
function unescapeXlsx(text: string): string {
  if (!text.includes('_x')) return text
  return text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, code: string) =>
    String.fromCharCode(Number.parseInt(code, 16)),
  )
}

/** The column of a cell reference ("AB12" → 27), or -1 when it names none. */
function columnOf(reference: string): number {
  let column = 0
  let at = 0
  for (; at < reference.length; at++) {
    const code = reference.charCodeAt(at) & ~32
    if (code < 65 || code > 90) break
    column = column * 26 + code - 64
  }
  return at === 0 ? -1 : column - 1
}

/** Excel's widest sheet: columns A to XFD. */
const maxColumn = 16_383

function columnName(column: number): string {
  let name = ''
  for (let left = column + 1; left > 0; left = Math.floor((left - 1) / 26))
    name = String.fromCharCode(65 + ((left - 1) % 26)) + name
  return name
}

interface Relationship {
  id: string
  target: string
  type: string
}

/** Every attribute of a start tag, for the few parts where more than one is asked. */
function attributesOf(text: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const match of text.matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g))
    found.set(match[1]!, decodeXml(match[2] ?? match[3] ?? ''))
  return found
}

function resolve(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1)
  const parts = base.split('/').slice(0, -1)
  for (const part of target.split('/')) {
    if (part === '..') parts.pop()
    else if (part !== '.' && part !== '') parts.push(part)
  }
  return parts.join('/')
}

function relsPath(part: string): string {
  const slash = part.lastIndexOf('/')
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`
}

/** An open workbook: its sheets' names, and each sheet's rows on request, read as a stream. */
export class Workbook {
  readonly sheets: { name: string; path: string }[] = []
  private readonly archive: ZipArchive
  private sharedStrings: string[] = []
  /** By cell style: whether it shows a date. */
  private dateStyles: boolean[] = []
  private date1904 = false
  /** The workbook asks for every formula to be computed again when opened: saved values are unsure. */
  private recalculate = false

  private constructor(archive: ZipArchive) {
    this.archive = archive
  }

  /** Reads what every sheet needs (the sheets' names, styles, shared strings). Throws an ImportError. */
  static async open(bytes: Uint8Array): Promise<Workbook> {
    const odf = openDocumentProblem(bytes.subarray(0, 200))
    if (odf) throw new ImportError('workbook', odf)
    if (!isZip(bytes)) throw broken('it is not a ZIP archive, as .xlsx files are')
    const archive = new ZipArchive(bytes, broken)
    if (archive.get('content.xml') && archive.get('mimetype')) throw new ImportError('workbook', openDocument)
    const workbook = new Workbook(archive)
    await workbook.readParts()
    return workbook
  }

  private async readParts(): Promise<void> {
    const book = await this.workbookPath()
    const rels = await this.relationships(relsPath(book))
    const part = this.archive.get(book)
    if (!part) throw broken('it holds no workbook')
    await this.each(part, (name, attributes) => {
      if (name === 'workbookPr') {
        const value = attribute(attributes, 'date1904')
        this.date1904 = value === '1' || value === 'true'
      } else if (name === 'calcPr') {
        const value = attribute(attributes, 'fullCalcOnLoad')
        this.recalculate = value === '1' || value === 'true'
      } else if (name === 'sheet') {
        const all = attributesOf(attributes)
        const id = [...all].find(([key]) => key.endsWith(':id'))?.[1]
        const rel = rels.find((one) => one.id === id)
        if (rel && /\/worksheet$/.test(rel.type))
          this.sheets.push({ name: all.get('name') ?? '', path: resolve(book, rel.target) })
      }
    })
    const related = (kind: string, fallback: string) => {
      const rel = rels.find((one) => one.type.endsWith(`/${kind}`))
      return this.archive.get(rel ? resolve(book, rel.target) : fallback)
    }
    const strings = related('sharedStrings', 'xl/sharedStrings.xml')
    if (strings) this.sharedStrings = await this.readSharedStrings(strings)
    const styles = related('styles', 'xl/styles.xml')
    if (styles) this.dateStyles = await this.readStyles(styles)
  }

  /**
   * A sheet's rows as they are read, a batch at a time; its report (formulas without a value) once
   * they are all read. Throws an ImportError when the sheet cannot be read.
   */
  async *rows(name: string): AsyncGenerator<SheetRow[], SheetReport, void> {
    const sheet = this.sheets.find((one) => one.name === name)
    const entry = sheet && this.archive.get(sheet.path)
    if (!entry) throw broken(`its sheet “${name}” is missing`)
    const reader = new SheetReader(this.sharedStrings, this.dateStyles, this.date1904, this.recalculate)
    const scanner = new XmlScanner(reader, () => broken(`its sheet “${name}” is damaged`))
    for await (const text of this.texts(entry)) {
      scanner.push(text)
      if (reader.rows.length > 0) yield reader.take()
    }
    if (reader.rows.length > 0) yield reader.take()
    return { uncomputed: reader.uncomputed }
  }

  private async workbookPath(): Promise<string> {
    let path = 'xl/workbook.xml'
    const rels = this.archive.get('_rels/.rels')
    if (rels) {
      await this.each(rels, (name, attributes) => {
        if (name !== 'Relationship') return
        const all = attributesOf(attributes)
        if (all.get('Type')?.endsWith('/officeDocument')) path = resolve('', all.get('Target') ?? path)
      })
    }
    return path
  }

  private async relationships(path: string): Promise<Relationship[]> {
    const part = this.archive.get(path)
    const found: Relationship[] = []
    if (!part) return found
    await this.each(part, (name, attributes) => {
      if (name !== 'Relationship') return
      const all = attributesOf(attributes)
      found.push({ id: all.get('Id') ?? '', target: all.get('Target') ?? '', type: all.get('Type') ?? '' })
    })
    return found
  }

  private async readSharedStrings(part: ZipEntry): Promise<string[]> {
    const strings: string[] = []
    let text = ''
    let capturing = false
    let phonetic = 0
    await this.scan(part, {
      open(name) {
        if (name === 'si') text = ''
        else if (name === 'rPh') phonetic++
        else if (name === 't' && phonetic === 0) capturing = true
      },
      close(name) {
        if (name === 't') capturing = false
        else if (name === 'rPh') phonetic--
        else if (name === 'si') strings.push(unescapeXlsx(decodeXml(text)))
      },
      text(raw) {
        if (capturing) text += raw
      },
    })
    return strings
  }

  private async readStyles(part: ZipEntry): Promise<boolean[]> {
    const formats = new Map<number, string>()
    const styles: number[] = []
    let inCellStyles = false
    await this.scan(part, {
      open(name, attributes, empty) {
        if (name === 'numFmt') {
          const id = Number(attribute(attributes, 'numFmtId'))
          formats.set(id, attribute(attributes, 'formatCode') ?? '')
        } else if (name === 'cellXfs') inCellStyles = !empty
        else if (name === 'xf' && inCellStyles) styles.push(Number(attribute(attributes, 'numFmtId') ?? 0))
      },
      close(name) {
        if (name === 'cellXfs') inCellStyles = false
      },
      text() {},
    })
    return styles.map((id) => {
      const code = formats.get(id)
      return code !== undefined ? isDateFormat(code) : builtInDateFormats.has(id)
    })
  }

  private each(part: ZipEntry, open: (name: string, attributes: string) => void): Promise<void> {
    return this.scan(part, { open, close() {}, text() {} })
  }

  private async scan(part: ZipEntry, handler: XmlHandler): Promise<void> {
    const scanner = new XmlScanner(handler, () => broken(`its part ${part.name} is damaged`))
    for await (const text of this.texts(part)) scanner.push(text)
  }

  /** A part's text as it inflates: UTF-8, or UTF-16 when its byte-order mark says so. */
  private async *texts(part: ZipEntry): AsyncGenerator<string> {
    let decoder: InstanceType<typeof TextDecoder> | null = null
    for await (const chunk of this.archive.inflate(part)) {
      decoder ??= new TextDecoder(chunk[0] === 0xff && chunk[1] === 0xfe ? 'utf-16le' : 'utf-8')
      yield decoder.decode(chunk, { stream: true })
    }
    if (decoder) yield decoder.decode()
  }
}

/** The cells of a sheet's XML as they stream by, gathered into rows. */
class SheetReader implements XmlHandler {
  rows: SheetRow[] = []
  readonly uncomputed = new Map<number, UncomputedFormulas>()
  private row = 0
  private cells: string[] = []
  private column = -1
  private type = ''
  private style = 0
  private formula = false
  private valued = false
  private value = ''
  private capturing = false
  private inline = false
  private phonetic = 0

  constructor(
    private readonly sharedStrings: string[],
    private readonly dateStyles: boolean[],
    private readonly date1904: boolean,
    private readonly recalculate: boolean,
  ) {}

  take(): SheetRow[] {
    const rows = this.rows
    this.rows = []
    return rows
  }

  open(name: string, attributes: string): void {
    switch (name) {
      case 'row': {
        // A row or a cell without its address (DataGrip and IntelliJ write them so) is the next one.
        const number = Number(attribute(attributes, 'r'))
        this.row = Number.isInteger(number) && number > this.row ? number : this.row + 1
        this.cells = []
        this.column = -1
        break
      }
      case 'c': {
        const reference = attribute(attributes, 'r')
        const column = reference === undefined ? -1 : columnOf(reference)
        this.column = column > this.column ? column : this.column + 1
        if (this.column > maxColumn) throw broken(`a cell of row ${this.row} lies past column XFD`)
        this.type = attribute(attributes, 't') ?? 'n'
        this.style = Number(attribute(attributes, 's') ?? 0)
        this.formula = false
        this.valued = false
        this.value = ''
        break
      }
      case 'v':
        this.valued = true
        this.capturing = true
        break
      case 'f':
        this.formula = true
        break
      case 'is':
        this.inline = true
        this.valued = true
        break
      case 'rPh':
        this.phonetic++
        break
      case 't':
        this.capturing = this.inline && this.phonetic === 0
        break
    }
  }

  text(raw: string): void {
    if (this.capturing) this.value += raw
  }

  close(name: string): void {
    switch (name) {
      case 'v':
      case 't':
        this.capturing = false
        break
      case 'is':
        this.inline = false
        break
      case 'rPh':
        this.phonetic--
        break
      case 'c':
        this.endCell()
        break
      case 'row':
        this.rows.push({ row: this.row, cells: this.cells })
        break
    }
  }

  private endCell(): void {
    if (this.formula) this.countFormula()
    const text = this.cellText()
    if (text === '') return
    const cells = this.cells
    while (cells.length < this.column) cells.push('')
    cells[this.column] = text
  }

  private countFormula(): void {
    const missing = !this.valued || (this.value === '' && this.type !== 'str')
    if (!missing && !this.recalculate) return
    let counts = this.uncomputed.get(this.column)
    if (!counts) this.uncomputed.set(this.column, (counts = { missing: 0, unsure: 0 }))
    if (missing) counts.missing++
    else counts.unsure++
  }

  private cellText(): string {
    const value = this.value
    switch (this.type) {
      case 's':
        return this.sharedStrings[Number(value)] ?? ''
      case 'inlineStr':
      case 'str':
        return unescapeXlsx(decodeXml(value))
      case 'b':
        return value.trim() === '1' ? 'TRUE' : value.trim() === '0' ? 'FALSE' : ''
      case 'e':
        return ''
      case 'd': {
        const text = value.trim()
        const zoned = /[zZ]|[+-]\d\d:?\d\d$/.test(text) || !text.includes('T') ? text : `${text}Z`
        return sheetCellText(new Date(zoned.length === 10 ? `${zoned}T00:00:00Z` : zoned))
      }
      default: {
        const text = value.trim()
        if (text === '') return ''
        const number = Number(text)
        if (!Number.isFinite(number)) return decodeXml(text)
        return this.dateStyles[this.style] ? serialText(number, this.date1904) : numberText(number)
      }
    }
  }
}

const filled = (row: string[]) => row.filter((cell) => cell.trim() !== '').length

/** What a sheet holds, counted from its rows as they are read (`summarize`, `sheetCsv`). */
export class SheetTally {
  private header: string[] | null = null
  private rows = 0
  private columns = 0

  add(cells: string[]): void {
    if (cells.length > this.columns) this.columns = cells.length
    if (filled(cells) === 0) return
    if (this.header === null) this.header = cells
    else this.rows++
  }

  summary(name: string): SheetSummary {
    const named = new Set((this.header ?? []).map((cell) => cell.trim()).filter(Boolean)).size
    const below = this.rows > 0
    return {
      name,
      rows: this.rows,
      columns: this.columns,
      table: below && named >= 2,
      list: below && named >= 1,
    }
  }
}

/** What a sheet holds, read through once: its rows under the header, its width, whether it holds a list. */
export async function summarize(book: Workbook, name: string): Promise<SheetSummary> {
  const tally = new SheetTally()
  for await (const batch of book.rows(name)) for (const { cells } of batch) tally.add(cells)
  return tally.summary(name)
}

/** The sheet of that name (in any case), or an ImportError naming the sheets there are. */
export function findSheet(names: readonly string[], wanted: string): string {
  const found = names.find((name) => name.toLowerCase() === wanted.trim().toLowerCase())
  if (found === undefined) {
    throw new ImportError(
      'workbook',
      `This workbook has no sheet “${wanted}”; its sheets: ${names.map((name) => `“${name}”`).join(', ')}.`,
    )
  }
  return found
}

/**
 * The sheet to read when none is named: the first that holds a table (so a workbook that opens on a
 * "Read me" note still imports its list); else the first that holds a list of one column.
 */
export function chooseSheet(summaries: readonly SheetSummary[]): string {
  const chosen = summaries.find((sheet) => sheet.table) ?? summaries.find((sheet) => sheet.list)
  if (!chosen) {
    const names = summaries.map((sheet) => `“${sheet.name}”`).join(', ')
    throw new ImportError(
      'workbook',
      `No sheet of this workbook holds a list (a header row with rows under it); its sheets: ${names}.`,
    )
  }
  return chosen.name
}

export const workbookLimits = {
  /** Characters of CSV one sheet may become; a sheet that would be larger is read as CSV instead. */
  maxCsvChars: 2 ** 31,
}

/**
 * A sheet's rows as CSV text, a piece at a time: comma, CRLF, quoted where needed. Row N of the sheet
 * is record N of the text (a row without cells is an empty line), so a header row chosen by its
 * number in the preview is the sheet's row of that number. `tally`, when given, counts the rows as
 * they go by, so that one reading both summarizes the sheet and makes its CSV.
 */
export async function* sheetCsv(
  book: Workbook,
  name: string,
  tally?: SheetTally,
): AsyncGenerator<string, SheetReport, void> {
  const rows = book.rows(name)
  let written = 0
  let chars = 0
  for (;;) {
    const next = await rows.next()
    if (next.done) return next.value
    const lines: string[] = []
    for (const { row, cells } of next.value) {
      tally?.add(cells)
      while (written < row - 1) {
        lines.push('')
        written++
      }
      lines.push(cells.map(csvField).join(','))
      written++
    }
    const text = lines.join('\r\n') + '\r\n'
    chars += text.length
    if (chars > workbookLimits.maxCsvChars) {
      throw new ImportError(
        'workbook',
        `The sheet “${name}” is too large to read from a workbook. Export it as CSV and import that instead: a CSV file of any size is read as a stream.`,
      )
    }
    yield text
  }
}

function csvField(cell: string): string {
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell
}

/**
 * Says which columns hold formulas without a computed value, and how many, at most five columns,
 * each by its letter and its name in `header` (the header the list is read with).
 */
export function formulaNotes(report: SheetReport, header: readonly string[] | null): string[] {
  const columns = [...report.uncomputed].sort(([a], [b]) => a - b)
  const named = (column: number) => {
    const title = header?.[column]?.trim()
    return title ? `“${title}” (column ${columnName(column)})` : `column ${columnName(column)}`
  }
  const count = (value: number, what: string) =>
    `${value.toLocaleString('en')} ${what}${value === 1 ? '' : 's'}`
  const notes: string[] = []
  const missing = columns.filter(([, counts]) => counts.missing > 0)
  const unsure = columns.filter(([, counts]) => counts.unsure > 0)
  const list = (found: typeof columns, of: 'missing' | 'unsure') => {
    const shown = found
      .slice(0, 5)
      .map(([column, counts]) => `${named(column)}: ${count(counts[of], 'formula')}`)
    const more = found.length > 5 ? `, and ${found.length - 5} more columns` : ''
    return shown.join('; ') + more
  }
  if (missing.length > 0) {
    notes.push(
      `Formulas without a computed value read as empty. ${list(missing, 'missing')}. Open the workbook in Excel or LibreOffice, let it calculate, save it and import it again to read their values.`,
    )
  }
  if (unsure.length > 0) {
    notes.push(
      `The program that saved this workbook left its formulas to be computed when it is opened: their saved values may be wrong (often 0). ${list(unsure, 'unsure')}. Open the workbook in Excel or LibreOffice, save it and import it again to read their values.`,
    )
  }
  return notes
}
