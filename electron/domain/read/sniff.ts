import { readRows } from './rows'
import { headerField } from '../headers'

export const delimiterOptions = [
  { value: ',', label: 'Comma ( , )' },
  { value: ';', label: 'Semicolon ( ; )' },
  { value: '\t', label: 'Tab' },
  { value: '|', label: 'Pipe ( | )' },
] as const

const sampleRows = 50

/**
 * The delimiter that cuts the first rows into the same number of cells most consistently; among
 * equally consistent ones, the one that gives more columns (a comma inside "Paris, France" in a
 * semicolon file gives fewer, ragged columns).
 */
export function detectDelimiter(text: string, complete: boolean): string {
  let best = { delimiter: ',', score: -Infinity }
  for (const { value } of delimiterOptions) {
    let widths: number[]
    try {
      widths = readRows(text, value, complete, sampleRows).map((row) => row.cells.length)
    } catch {
      // A quote closed just before a comma is unclosed to a semicolon reader: not this delimiter.
      continue
    }
    if (widths.length === 0) continue
    const counts = new Map<number, number>()
    for (const width of widths) counts.set(width, (counts.get(width) ?? 0) + 1)
    const [mode, seen] = [...counts].reduce((a, b) => (b[1] > a[1] || (b[1] === a[1] && b[0] > a[0]) ? b : a))
    if (mode < 2) continue
    const score = (seen / widths.length) * 10 + Math.log2(mode)
    if (score > best.score) best = { delimiter: value, score }
  }
  return best.delimiter
}

const looksLikeData =
  /^(?:[^\s@]+@[^\s@]+\.[^\s@]+|https?:\/\/\S+|www\.\S+|[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}(?:\/\S*)?|[-+]?[\d\s.,/:()-]+)$/i

/**
 * Whether the first row names the columns: it does when a cell is a known column name, or when it
 * holds no value that looks like data (email, address, domain, number) while the next rows do.
 */
export function detectHeader(rows: string[][]): boolean {
  const first = rows[0]
  if (!first) return true
  const cells = first.map((cell) => cell.trim())
  if (cells.some((cell) => headerField(cell) !== null)) return true
  if (cells.some((cell) => cell !== '' && looksLikeData.test(cell))) return false
  const rest = rows.slice(1)
  if (rest.some((row) => row.some((cell) => looksLikeData.test(cell.trim())))) return true
  const distinct = new Set(cells.map((cell) => cell.toLowerCase()))
  return !cells.includes('') && distinct.size === cells.length
}

/** Header cells made usable as column names: blanks named by position, repeats numbered. */
export function uniqueHeaders(cells: string[], width = cells.length): string[] {
  const used = new Set<string>()
  const names: string[] = []
  for (let i = 0; i < width; i++) {
    const base = (cells[i] ?? '').replace(/\s+/g, ' ').trim() || `Column ${i + 1}`
    let name = base
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base} (${n})`
    used.add(name.toLowerCase())
    names.push(name)
  }
  return names
}

export function positionalHeaders(width: number): string[] {
  return Array.from({ length: width }, (_, i) => `Column ${i + 1}`)
}
