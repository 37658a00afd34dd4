/**
 * A streaming reader of the XML a workbook is made of: text arrives in pieces of any size, and each
 * start tag, end tag and run of text is handed on as it is complete, so a sheet of a million rows is
 * never one string or one tree. It reads what spreadsheet programs write (elements, attributes,
 * entities, CDATA, comments, processing instructions); it does not check that the XML is well formed
 * and knows nothing of DTDs, so no entity of a file's own is ever expanded.
 */

export interface XmlHandler {
  /** A start tag: its local name (any `x:` prefix dropped), its attributes' text, and whether it is empty (`<c/>`). */
  open(name: string, attributes: string, empty: boolean): void
  close(name: string): void
  /** Text between tags, raw: entities are decoded by whoever keeps it (`decodeXml`). */
  text(raw: string): void
}

/** Past this, a tag still unclosed is not XML a spreadsheet program writes. */
const maxTagChars = 1_000_000

export class XmlScanner {
  private rest = ''

  constructor(
    private readonly handler: XmlHandler,
    private readonly broken: () => Error,
  ) {}

  push(piece: string): void {
    const text = this.rest === '' ? piece : this.rest + piece
    const handler = this.handler
    let at = 0
    for (;;) {
      const lt = text.indexOf('<', at)
      if (lt < 0) {
        if (at < text.length) handler.text(text.slice(at))
        at = text.length
        break
      }
      if (lt > at) handler.text(text.slice(at, lt))
      at = lt
      const next = text.charCodeAt(lt + 1)
      if (next === 33 /* ! */ || next === 63 /* ? */) {
        const end = this.special(text, lt)
        if (end < 0) break
        at = end
        continue
      }
      const gt = text.indexOf('>', lt)
      if (gt < 0) break
      if (next === 47 /* / */) {
        handler.close(localName(text.slice(lt + 2, gt).trimEnd()))
      } else {
        const empty = text.charCodeAt(gt - 1) === 47
        const inner = text.slice(lt + 1, empty ? gt - 1 : gt)
        const space = inner.search(/[\s/]/)
        const name = space < 0 ? inner : inner.slice(0, space)
        handler.open(localName(name), space < 0 ? '' : inner.slice(space), empty)
        if (empty) handler.close(localName(name))
      }
      at = gt + 1
    }
    this.rest = at < text.length ? text.slice(at) : ''
    if (this.rest.length > maxTagChars) throw this.broken()
  }

  /** A comment, CDATA or processing instruction at `lt`: where it ends, or -1 until it is whole. */
  private special(text: string, lt: number): number {
    if (text.startsWith('<![CDATA[', lt)) {
      const end = text.indexOf(']]>', lt + 9)
      if (end < 0) return -1
      this.handler.text(escapeXml(text.slice(lt + 9, end)))
      return end + 3
    }
    const close = text.startsWith('<!--', lt) ? '-->' : text.charCodeAt(lt + 1) === 63 ? '?>' : '>'
    const end = text.indexOf(close, lt + 2)
    return end < 0 ? -1 : end + close.length
  }
}

function localName(name: string): string {
  const colon = name.indexOf(':')
  return colon < 0 ? name : name.slice(colon + 1)
}

/** One attribute's value from a start tag's attributes' text (`XmlHandler.open`), decoded; undefined when absent. */
export function attribute(attributes: string, name: string): string | undefined {
  const length = attributes.length
  let at = 0
  while (at < length) {
    while (at < length && attributes.charCodeAt(at) <= 32) at++
    const equals = attributes.indexOf('=', at)
    if (equals < 0) return undefined
    const key = attributes.slice(at, equals).trimEnd()
    let start = equals + 1
    while (attributes.charCodeAt(start) <= 32) start++
    const quote = attributes[start]
    if (quote !== '"' && quote !== "'") return undefined
    const end = attributes.indexOf(quote, start + 1)
    if (end < 0) return undefined
    if (key === name) return decodeXml(attributes.slice(start + 1, end))
    at = end + 1
  }
  return undefined
}

const named: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" }

/** Text with XML's five named entities and its character references decoded; anything else kept as written. */
export function decodeXml(raw: string): string {
  if (!raw.includes('&')) return raw
  return raw.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10)
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return named[body] ?? whole
  })
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;')
}
