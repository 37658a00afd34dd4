import { describe, expect, it } from 'vitest'
import { contactKeys } from '@/db/contact-index'
import { fold, nameWords, wordsOf } from '@/db/words'

/** What `fold` does for any text, without its shortcut for ASCII (and its letters without an accent to remove). */
const folded = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim()

describe('folding', () => {
  it('reads ASCII and accented text alike, case and accents away', () => {
    const texts = [
      '  Zoë Ångström ',
      'Jean-Luc PICARD',
      'ADA@Example.IO',
      'ﬁnn Ore',
      'Mañana\tSEÑOR',
      'plain',
      '',
      '\u00a0spaced\u00a0',
      'c:12345',
    ]
    for (const text of texts) expect(fold(text)).toBe(folded(text))
    expect(fold('  Zoë Ångström ')).toBe('zoe angstrom')
    expect(fold('Jean-Luc PICARD')).toBe('jean-luc picard')
    // Letters that decomposing leaves whole, folded as people type them.
    expect(fold('Søren ØSTERGAARD')).toBe('soren ostergaard')
    expect(fold('Łukasz Strauß, STRAUẞ')).toBe('lukasz strauss, strauss')
    expect(fold('Æsa Þór Đorđe Œuvre İlkay')).toBe('aesa thor dorde oeuvre ilkay')
    expect(nameWords('Søren Østergaard')).toEqual(['soren', 'ostergaard'])
    expect(nameWords('Jean-Luc Picard')).toEqual(['jean', 'luc', 'picard'])
    expect(wordsOf('Zoë Brown', 'Zoe.Brown@Acme.io', 'acme.io')).toEqual([
      'zoe',
      'brown',
      'zoe.brown@acme.io',
      'acme.io',
    ])
  })
})

describe("a person's keys", () => {
  it('names each key once, the id first', () => {
    expect(contactKeys({ id: 'c:42', emailLower: 'ada@acme.io', identity: 'ada lovelace@acme.io' })).toEqual([
      'c:42',
      'e:ada@acme.io',
      'n:ada lovelace@acme.io',
    ])
    // Stored by email: the email key is the id.
    expect(
      contactKeys({
        id: 'e:ada@acme.io',
        emailLower: 'ada@acme.io',
        identity: '',
        words: ['ada', 'c:42'],
      }),
    ).toEqual(['e:ada@acme.io', 'c:42'])
    expect(
      contactKeys({ id: 'n:ada lovelace@acme.io', emailLower: '', identity: 'ada lovelace@acme.io' }),
    ).toEqual(['n:ada lovelace@acme.io'])
  })
})
