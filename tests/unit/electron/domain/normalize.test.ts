import { describe, expect, it } from 'vitest'
import { clean, normalizeDomain } from '../../../../electron/domain/normalize'

/** The rule `clean` keeps, written the slow way: NFC, runs of white space as one space, trimmed. */
const slowClean = (value: string) => value.normalize('NFC').replace(/\s+/g, ' ').trim()

describe('clean', () => {
  it('reads every cell as the full rule does, plain ASCII or not', () => {
    const cells = [
      '',
      ' ',
      'Jane',
      'Jane Doe',
      'Jane  Doe',
      ' Jane',
      'Jane ',
      'Jane\tDoe',
      'Jane\u00a0Doe',
      'Zoe\u0308',
      'Zoë',
      'acme.com/about?x=1',
      'line\none',
      '\r\n',
      '!~',
      'a b c d e f',
    ]
    for (const cell of cells) expect(clean(cell), JSON.stringify(cell)).toBe(slowClean(cell))
    expect(clean(undefined)).toBe('')
    expect(clean('Zoe\u0308')).toBe('Zoë')
  })

  it('leaves a domain the same either way', () => {
    expect(normalizeDomain(' https://www.Example.com/about ')).toBe('example.com')
  })
})
