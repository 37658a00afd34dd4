/**
 * How the library finds people as people search: by any word of a name, by an email or a domain
 * from its start, whatever the case and accents ("zoe" finds Zoë, "brown" finds Amy Brown). A
 * record keeps its words in a multi-entry index; a search reads that index from its first word.
 */

/** A character other than printable ASCII, a tab or a line break. */
const beyondAscii = /[^ -~\t\n\r]/

/**
 * Letters that are not a letter and its accent, which decomposing leaves whole, as people type them
 * without: "Østergaard" is found as "ostergaard", "Strauß" as "strauss", "Łukasz" as "lukasz".
 */
const plainLetters: Record<string, string> = {
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
const unplain = new RegExp(`[${Object.keys(plainLetters).join('')}]`, 'gu')

/** Lower case without accents: "Zoë Ångström" → "zoe angstrom", "Søren Østergaard" → "soren ostergaard". */
export function fold(text: string): string {
  // Most names, emails and domains are plain ASCII, which decomposes to itself and has no marks.
  if (!beyondAscii.test(text)) return text.toLowerCase().trim()
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(unplain, (letter) => plainLetters[letter]!)
    .trim()
}

const nameSeparators = /[\s\-‐–'’,;/()]+/u

/** The words a name is found by: each word ("Jean-Luc Picard" → jean, luc, picard). */
export function nameWords(name: string): string[] {
  return [...new Set(fold(name).split(nameSeparators).filter(Boolean))]
}

/** A record's index entries: its name's words and any other whole values (email, domain, ids). */
export function wordsOf(name: string, ...whole: string[]): string[] {
  const words = new Set<string>()
  for (const word of fold(name).split(nameSeparators)) if (word !== '') words.add(word)
  for (const value of whole) {
    const folded = fold(value)
    if (folded !== '') words.add(folded)
  }
  return [...words]
}

/**
 * A search's words: what the user typed, folded and split on spaces. The first is read from the
 * index; a record matches when every word starts one of its words.
 */
export function searchWords(text: string): string[] {
  return fold(text).split(/\s+/u).filter(Boolean)
}

/** Whether a record with these words matches every search word (each a prefix of one of them). */
export function matchesWords(recordWords: readonly string[], search: readonly string[]): boolean {
  return search.every((word) => recordWords.some((known) => known.startsWith(word)))
}

/** A library search as the index checks it: folded search words, and the facet values wanted. */
export interface LibraryMatch<F extends string> {
  words: string[]
  facets: [F, string[]][]
  /** People only: the company domain they must be at (lower case), exactly. */
  domain?: string
}
