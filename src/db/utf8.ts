/**
 * Text to UTF-8 bytes as `TextEncoder.encodeInto` writes them (a lone surrogate becomes U+FFFD), in
 * plain script: `encodeInto` has the browser copy each new string before it encodes it, which this
 * loop does not (`npm run bench -- --only browser`, the export).
 *
 * Encodes `text` from `from` into `buffer` while a whole character still fits: `read` is where it
 * stopped in `text`, `written` the bytes put in `buffer`.
 */
export function encodeUtf8Into(
  text: string,
  from: number,
  buffer: Uint8Array,
): { read: number; written: number } {
  // Smaller, it could hold no character of four bytes, and a caller's loop would never end.
  if (buffer.length < 4) throw new RangeError('encodeUtf8Into needs a buffer of at least 4 bytes')
  const length = text.length
  // Up to four bytes a character: stop while that many still fit.
  const last = buffer.length - 4
  let at = from
  let written = 0
  while (at < length && written <= last) {
    let code = text.charCodeAt(at++)
    if (code < 0x80) {
      buffer[written++] = code
      continue
    }
    if (code < 0x800) {
      buffer[written++] = 0xc0 | (code >> 6)
      buffer[written++] = 0x80 | (code & 0x3f)
      continue
    }
    if (code >= 0xd800 && code < 0xe000) {
      const next = at < length ? text.charCodeAt(at) : 0
      if (code < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
        at++
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00)
        buffer[written++] = 0xf0 | (code >> 18)
        buffer[written++] = 0x80 | ((code >> 12) & 0x3f)
        buffer[written++] = 0x80 | ((code >> 6) & 0x3f)
        buffer[written++] = 0x80 | (code & 0x3f)
        continue
      }
      code = 0xfffd
    }
    buffer[written++] = 0xe0 | (code >> 12)
    buffer[written++] = 0x80 | ((code >> 6) & 0x3f)
    buffer[written++] = 0x80 | (code & 0x3f)
  }
  return { read: at, written }
}
