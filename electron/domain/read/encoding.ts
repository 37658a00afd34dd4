import { ImportError } from './errors'
import { openDocumentProblem } from './workbook'

export interface EncodingOption {
  /** A WHATWG label TextDecoder accepts. */
  value: string
  label: string
}

const candidates: EncodingOption[] = [
  { value: 'utf-8', label: 'UTF-8' },
  { value: 'utf-16le', label: 'UTF-16 LE' },
  { value: 'utf-16be', label: 'UTF-16 BE' },
  { value: 'windows-1252', label: 'Windows-1252 (Western)' },
  // Browsers decode the ISO-8859-1 label as Windows-1252, its superset: same text for any Latin-1 file.
  { value: 'iso-8859-1', label: 'ISO-8859-1 (Latin-1)' },
  { value: 'iso-8859-15', label: 'ISO-8859-15 (Latin-9)' },
  { value: 'macintosh', label: 'Mac OS Roman' },
]

function decoderExists(label: string): boolean {
  try {
    new TextDecoder(label)
    return true
  } catch {
    return false
  }
}

/** The encodings offered, minus any this runtime cannot decode (MacRoman is not everywhere). */
export const encodingOptions: EncodingOption[] = candidates.filter((option) => decoderExists(option.value))

export interface DetectedEncoding {
  encoding: string
  /** A byte-order mark named it; TextDecoder drops the mark itself when the encoding matches. */
  bom: boolean
}

const singleByte = ['windows-1252', 'iso-8859-15', 'macintosh'].filter(decoderExists)

/** Looks at the first bytes of a file only: a sample of some tens of kilobytes is plenty. */
export function detectEncoding(sample: Uint8Array): DetectedEncoding {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf) return { encoding: 'utf-8', bom: true }
  if (sample[0] === 0xff && sample[1] === 0xfe) return { encoding: 'utf-16le', bom: true }
  if (sample[0] === 0xfe && sample[1] === 0xff) return { encoding: 'utf-16be', bom: true }
  // Zip headers hold zero bytes that could pass for UTF-16: recognise known formats first.
  refuseKnownFormats(sample)
  const utf16 = utf16WithoutBom(sample)
  if (utf16) return { encoding: utf16, bom: false }
  assertText(sample)
  if (isUtf8(sample)) return { encoding: 'utf-8', bom: false }
  let best = { encoding: 'windows-1252', score: -Infinity }
  for (const encoding of singleByte) {
    const score = plausibility(new TextDecoder(encoding).decode(sample))
    // Ties keep the earlier, more common encoding.
    if (score > best.score) best = { encoding, score }
  }
  return { encoding: best.encoding, bom: false }
}

/** ASCII text in UTF-16 has a zero in every other byte; which half tells the byte order. */
function utf16WithoutBom(sample: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  const length = Math.min(sample.length, 4096) & ~1
  if (length < 4) return null
  let evenZeros = 0
  let oddZeros = 0
  for (let i = 0; i < length; i += 2) {
    if (sample[i] === 0) evenZeros++
    if (sample[i + 1] === 0) oddZeros++
  }
  const pairs = length / 2
  if (oddZeros > pairs * 0.4 && evenZeros < pairs * 0.05) return 'utf-16le'
  if (evenZeros > pairs * 0.4 && oddZeros < pairs * 0.05) return 'utf-16be'
  return null
}

const signatures: { bytes: number[]; message: string }[] = [
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    message:
      'This file is a ZIP archive, not a text list. An Excel workbook is read when its name ends in .xlsx; otherwise save or export it as CSV first.',
  },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0],
    message:
      'This file is an Excel 97–2003 workbook (.xls), which cannot be read here. Open it in Excel and save it as an Excel Workbook (.xlsx) or as CSV.',
  },
  {
    bytes: [0x25, 0x50, 0x44, 0x46],
    message: 'This file is a PDF document, not a text list. Export it as CSV first.',
  },
  { bytes: [0x1f, 0x8b], message: 'This file is a gzip archive, not a text list. Unpack it first.' },
]

function refuseKnownFormats(sample: Uint8Array): void {
  if (sample.length === 0) throw new ImportError('empty', 'The file is empty.')
  const openDocument = openDocumentProblem(sample)
  if (openDocument) throw new ImportError('binary', openDocument)
  for (const signature of signatures) {
    if (signature.bytes.every((byte, i) => sample[i] === byte))
      throw new ImportError('binary', signature.message)
  }
}

/** Throws a clear message for binary files that are not text in any encoding. */
function assertText(sample: Uint8Array): void {
  const length = Math.min(sample.length, 8192)
  let control = 0
  for (let i = 0; i < length; i++) {
    const byte = sample[i]!
    if (byte === 0) {
      throw new ImportError(
        'binary',
        'This file contains binary data (a zero byte near the start), not text. Export it as CSV first.',
      )
    }
    if (byte < 0x09 || (byte > 0x0d && byte < 0x20 && byte !== 0x1b)) control++
  }
  if (control > length * 0.05) {
    throw new ImportError('binary', 'This file does not look like text. Export it as CSV first.')
  }
}

function isUtf8(sample: Uint8Array): boolean {
  try {
    // `stream` lets a character cut at the end of the sample pass; anything else invalid throws.
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true })
    return true
  } catch {
    return false
  }
}

const commonSymbols = new Set('€£«»‘’‚“”„–—…°§©®™•·×'.split(''))

/**
 * Scores text decoded with a candidate encoding: accented letters inside words count for it;
 * control characters, rare symbols and a capital accent after a small letter ("PrÈnom") against.
 */
function plausibility(text: string): number {
  let score = 0
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!
    if (char.charCodeAt(0) < 0x80) continue
    if (/\p{Cc}/u.test(char)) score -= 5
    else if (/\p{L}/u.test(char)) {
      const before = text[i - 1] ?? ' '
      const after = text[i + 1] ?? ' '
      const capital = char !== char.toLowerCase()
      if (capital && /\p{Ll}/u.test(before)) score -= 3
      else if (/\p{L}/u.test(before) || /\p{L}/u.test(after)) score += 2
      else score += 1
    } else if (commonSymbols.has(char)) score += 1
    else score -= 2
  }
  return score
}
