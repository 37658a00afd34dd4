/**
 * How a name or a domain is compared, shared by the engine (which de-duplicates what it sends) and
 * the import (which flags duplicates before anything is spent), so both agree on what "the same" is.
 */
export const clean = (value: string | undefined): string => {
  const text = value ?? ''
  // Printable ASCII words one space apart are clean already (and NFC): most cells of most files,
  // checked in one pass instead of three.
  return plainText.test(text) ? text : text.normalize('NFC').replace(/\s+/g, ' ').trim()
}

const plainText = /^(?:[!-~]+(?: [!-~]+)*)?$/

/** `https://www.Example.com/about?x` → `example.com`; `jane@Example.com` → `example.com`. */
export function normalizeDomain(value: string | undefined): string {
  let domain = clean(value).toLowerCase()
  if (!domain) return ''
  const at = domain.lastIndexOf('@')
  if (at >= 0 && !domain.includes('/')) domain = domain.slice(at + 1)
  domain = domain.replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
  domain = domain
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/\.$/, '')
  return domain.replace(/^www\d*\./, '')
}

/**
 * A copy of a string that keeps nothing else alive. A cell the parser cut from the text of a file is
 * a slice of that text (a megabyte a chunk), which lives as long as the cell does: what is kept for
 * the whole of an import is copied with this first.
 */
export function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string
}
