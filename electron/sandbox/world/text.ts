const SMALL_WORDS = new Set(['and', 'of', 'the', 'de', 'for', 'in', 'at'])
const ACRONYMS = new Set([
  'vp',
  'ceo',
  'cto',
  'cfo',
  'coo',
  'cmo',
  'cro',
  'cpo',
  'it',
  'hr',
  'ai',
  'usa',
  'uk',
])

/** The service returns text normalised in casing whatever the caller wrote. */
export function titleCase(text: string): string {
  return text
    .trim()
    .toLowerCase()
    .split(/(\s+|-)/)
    .map((part, index) => {
      if (ACRONYMS.has(part)) return part.toUpperCase()
      if (index > 0 && SMALL_WORDS.has(part)) return part
      return part.charAt(0).toUpperCase() + part.slice(1)
    })
    .join('')
}

/**
 * Letters decomposing leaves whole, spelt as the service spells them in addresses and URLs:
 * Søren Østergaard is soren.ostergaard@, not sren.stergaard@.
 */
const spelt: Record<string, string> = {
  ø: 'o',
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
}

/** Lower-case ASCII words joined by '-': accents dropped ("José María" → "jose-maria"). */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[øæœßłđðþıħŧ]/g, (letter) => spelt[letter]!)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

export function normaliseDomain(domain: string): string {
  return domain
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/.*$/, '')
}
