import { describe, expect, it } from 'vitest'
import { normaliseDomain, slug, titleCase } from '../../../../../electron/sandbox/world/text'

describe('text normalisation', () => {
  it.each([
    ['jANE', 'Jane'],
    ['  mary-ann  ', 'Mary-Ann'],
    ['vp of sales', 'VP of Sales'],
    ['HEAD OF THE IT DEPARTMENT', 'Head of the IT Department'],
  ])('titleCase(%o) is %o', (input, expected) => {
    expect(titleCase(input)).toBe(expected)
  })

  it('reduces URLs and casing to a bare domain', () => {
    expect(normaliseDomain(' https://www.Example.COM/about ')).toBe('example.com')
  })

  it('slugs text for URLs', () => {
    expect(slug('Kuhn - Rempel & Sons')).toBe('kuhn-rempel-sons')
  })

  it('spells accented and other letters in ASCII, as addresses carry them', () => {
    expect(slug('José María')).toBe('jose-maria')
    expect(slug('Søren Østergaard')).toBe('soren-ostergaard')
    expect(slug('Łukasz Strauß')).toBe('lukasz-strauss')
    expect(slug('Zoë Ångström')).toBe('zoe-angstrom')
  })
})
