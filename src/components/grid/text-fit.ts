/**
 * A cell's text cut to its width, ending in an ellipsis, so that the cell need not clip it. A clip is a
 * node of the page's paint properties, and one a cell split a scrolled frame's painting into a chunk a
 * cell, every cell in view, which the browser's pre-paint, paint and layerizing then walk in every
 * frame (the browser bench's `grid … scroll p95 frame` and frames missed).
 *
 * A text's width is taken as an upper bound: the sum of each character's advance in the cell's font,
 * measured alone once (kerning only brings letters closer; a combining accent alone measures at least
 * its width in place), with a margin. So a text shown whole fits, and a cut one may end a letter
 * earlier than the browser's own ellipsis would. Only scripts whose letters keep their shapes side by
 * side are measured (Latin, Greek, Cyrillic, punctuation); any other text is `null`, and the grid
 * clips that cell and lets the browser place the ellipsis, as before.
 */
export type FitText = (text: string, room: number) => string | null

/** A text's width in CSS pixels, in the cell's font. */
export type MeasureText = (text: string) => number

export const ellipsis = '…'

/**
 * Pixels over a text's summed advances: any positive kerning. (Summed and laid out, the bench's texts
 * measured alike to a tenth of a pixel, the sum the wider; a text past its box by less than the cell's
 * padding would show no more than before.)
 */
const marginPx = 1

/**
 * Characters measured one by one: Latin, Greek, Cyrillic and their accents, spaces, punctuation and
 * currencies. Not controls, nor the marks that change a text's direction or its breaking (U+200B–200F,
 * U+2028–202E, U+2060–206F): a line separator breaks a line even where lines do not wrap.
 */
function measurable(code: number): boolean {
  return (
    (code >= 32 && code <= 126) ||
    (code >= 0xa0 && code <= 0x4ff) ||
    (code >= 0x2000 && code <= 0x200a) ||
    (code >= 0x2010 && code <= 0x2027) ||
    (code >= 0x2030 && code <= 0x205f) ||
    (code >= 0x20a0 && code <= 0x20cf)
  )
}

const isMark = (code: number) => code >= 0x300 && code <= 0x36f

export function fitTextOf(measure: MeasureText): FitText {
  const ascii = new Float64Array(128).fill(-1)
  const other = new Map<number, number>()
  const advanceOf = (code: number): number => {
    if (code < 128) return (ascii[code] = measure(String.fromCharCode(code)))
    let known = other.get(code)
    if (known === undefined) other.set(code, (known = measure(String.fromCharCode(code))))
    return known
  }
  const widthOfEllipsis = measure(ellipsis)
  return (text, room) => {
    const limit = room - marginPx
    // One pass, which ends where the text is known not to fit: the longest start that leaves room
    // for the ellipsis is known by then. A character that cannot be measured before that: null.
    let width = 0
    let kept = 0
    for (let at = 0; at < text.length; at++) {
      const code = text.charCodeAt(at)
      let advance = code < 128 ? ascii[code]! : -1
      if (advance < 0) {
        if (!measurable(code)) return null
        advance = advanceOf(code)
      }
      width += advance
      if (width + widthOfEllipsis <= limit) kept = at + 1
      else if (width > limit) {
        if (widthOfEllipsis > limit) return null
        // Not parting a letter from its accent.
        while (kept > 0 && isMark(text.charCodeAt(kept))) kept -= 1
        return text.slice(0, kept).trimEnd() + ellipsis
      }
    }
    return text
  }
}

/**
 * Texts cut to fit in `element`'s font, measured by a canvas; null where there is no canvas to measure
 * with or the font spaces its letters (then every cell clips, as before).
 */
export function fitTextIn(element: Element): FitText | null {
  const context = document.createElement('canvas').getContext('2d')
  if (!context) return null
  const style = getComputedStyle(element)
  if (parseFloat(style.letterSpacing) > 0 || parseFloat(style.wordSpacing) > 0) return null
  context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`
  const fit = fitTextOf((text) => context.measureText(text).width)
  // Every printable ASCII character measured now, not as a scrolled frame first meets it.
  fit(printableAscii, Infinity)
  return fit
}

const printableAscii = Array.from({ length: 95 }, (_, at) => String.fromCharCode(32 + at)).join('')
