import { describe, expect, it } from 'vitest'
import { detectEncoding, encodingOptions } from '../../../../../electron/domain/read/encoding'
import { isImportError } from '../../../../../electron/domain/read/errors'

const text = 'Prénom;Nom;Société\nRené;Müller;Ça Va Bière\nJosé;Nuñez;Œuvre & Co\n'

function utf16(value: string, order: 'le' | 'be'): Uint8Array {
  const le = Buffer.from(value, 'utf16le')
  if (order === 'le') return new Uint8Array(le)
  const be = new Uint8Array(le.length)
  for (let i = 0; i < le.length; i += 2) {
    be[i] = le[i + 1]!
    be[i + 1] = le[i]!
  }
  return be
}

/** Windows-1252 bytes of text that only uses Latin-1 letters plus Œ (0x8C). */
function cp1252(value: string): Uint8Array {
  return new Uint8Array([...value].map((char) => (char === 'Œ' ? 0x8c : char.charCodeAt(0))))
}

const decode = (bytes: Uint8Array, encoding: string) => new TextDecoder(encoding).decode(bytes)

describe('detectEncoding', () => {
  it('reads UTF-8 with a byte-order mark', () => {
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)])
    expect(detectEncoding(bytes)).toEqual({ encoding: 'utf-8', bom: true })
    expect(decode(bytes, 'utf-8')).toBe(text)
  })

  it('reads UTF-8 without a byte-order mark', () => {
    expect(detectEncoding(new TextEncoder().encode(text))).toEqual({ encoding: 'utf-8', bom: false })
  })

  it('reads UTF-16 LE and BE from their byte-order marks', () => {
    const le = new Uint8Array([0xff, 0xfe, ...utf16(text, 'le')])
    const be = new Uint8Array([0xfe, 0xff, ...utf16(text, 'be')])
    expect(detectEncoding(le)).toEqual({ encoding: 'utf-16le', bom: true })
    expect(detectEncoding(be)).toEqual({ encoding: 'utf-16be', bom: true })
    expect(decode(le, 'utf-16le')).toBe(text)
    expect(decode(be, 'utf-16be')).toBe(text)
  })

  it('recognises UTF-16 without a byte-order mark by its zero bytes', () => {
    expect(detectEncoding(utf16(text, 'le')).encoding).toBe('utf-16le')
    expect(detectEncoding(utf16(text, 'be')).encoding).toBe('utf-16be')
  })

  it('tells Windows-1252 from UTF-8 and decodes its accents', () => {
    const bytes = cp1252(text)
    const detected = detectEncoding(bytes)
    expect(detected.encoding).toBe('windows-1252')
    // Node decodes 0x80–0x9F (Œ here) as Latin-1 controls, browsers as Windows-1252: compare the rest.
    expect(decode(bytes, detected.encoding).split('\n').slice(0, 2)).toEqual(text.split('\n').slice(0, 2))
  })

  it('decodes an ISO-8859-1 file exactly', () => {
    const latin1 = 'Prénom,Nom\nRené,Müller\nFrançoise,Ångström\n'
    const bytes = new Uint8Array(Buffer.from(latin1, 'latin1'))
    expect(decode(bytes, detectEncoding(bytes).encoding)).toBe(latin1)
    expect(decode(bytes, 'iso-8859-1')).toBe(latin1)
  })

  it('prefers Mac OS Roman when its accents sit inside words', () => {
    if (!encodingOptions.some((option) => option.value === 'macintosh')) return
    // "Prénom,René" in Mac OS Roman: é is 0x8E (Ž in Windows-1252, a capital after a small letter).
    const bytes = new Uint8Array(
      [...'Pr', 0x8e, ...'nom,Ren', 0x8e, 0x0a].map((c) => (typeof c === 'string' ? c.charCodeAt(0) : c)),
    )
    expect(detectEncoding(bytes).encoding).toBe('macintosh')
  })

  it.each([
    ['empty', new Uint8Array(), 'The file is empty.'],
    ['xlsx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]), /Excel/],
    ['binary', new Uint8Array([0x41, 0x42, 0x00, 0x07, 0x08, 0x01, 0x02, 0x03]), /binary/],
  ])('refuses a %s file with a clear message', (_, bytes, message) => {
    let caught: unknown
    try {
      detectEncoding(bytes)
    } catch (error) {
      caught = error
    }
    expect(isImportError(caught)).toBe(true)
    expect((caught as Error).message).toMatch(message)
  })
})
