import { describe, expect, it } from 'vitest'
import { encodeUtf8Into } from '@/db/utf8'

/** All of `text` through `encodeUtf8Into`, `size` bytes at a time, as the export's sink writes it. */
function encodeAll(text: string, size: number): Uint8Array {
  const buffer = new Uint8Array(size)
  const out: number[] = []
  let from = 0
  while (from < text.length) {
    const { read, written } = encodeUtf8Into(text, from, buffer)
    expect(read).toBeGreaterThan(from)
    out.push(...buffer.subarray(0, written))
    from = read
  }
  return Uint8Array.from(out)
}

const samples = {
  ascii: 'Ada,Lovelace,ada@example.com,"Acme, Inc."\r\n',
  latin: 'Zoë Brontë,Ångström,São Paulo,Müller GmbH',
  bmp: 'Łódź,Ελλάδα,東京,Ḿ€',
  astral: 'rocket 🚀 and 𝒳, then 👩‍🔬',
  lone: `high \ud83d alone, low \ude80 alone, high at the end \ud83d`,
  reversed: 'low then high \ude80\ud83d!',
}

describe('encodeUtf8Into', () => {
  for (const [name, text] of Object.entries(samples)) {
    it(`writes ${name} text as TextEncoder does`, () => {
      expect(encodeAll(text, 1 << 16)).toEqual(new TextEncoder().encode(text))
    })
  }

  it('cuts between characters when the buffer fills, never inside one', () => {
    const text = Object.values(samples).join('|').repeat(40)
    const whole = new TextEncoder().encode(text)
    // Four bytes is the least that holds any character; odd sizes land mid-character otherwise.
    for (const size of [4, 5, 7, 13, 64, 1000]) expect(encodeAll(text, size)).toEqual(whole)
  })

  it('starts where it is told and stops at the end of the text', () => {
    const buffer = new Uint8Array(64)
    expect(encodeUtf8Into('abcdé', 3, buffer)).toEqual({ read: 5, written: 3 })
    expect([...buffer.subarray(0, 3)]).toEqual([0x64, 0xc3, 0xa9])
    expect(encodeUtf8Into('abc', 3, buffer)).toEqual({ read: 3, written: 0 })
  })
  it('refuses a buffer that could not hold a character of four bytes', () => {
    expect(() => encodeUtf8Into('a', 0, new Uint8Array(3))).toThrow(RangeError)
  })
})
