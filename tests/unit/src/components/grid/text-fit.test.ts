import { describe, expect, it } from 'vitest'
import { ellipsis, fitTextOf } from '@/components/grid/text-fit'

/** A font of the test's own: 'W' 12 px, 'i' 3 px, an accent alone 2 px, '…' 9 px, anything else 7 px. */
const widths: Record<string, number> = { W: 12, i: 3, '\u0301': 2, [ellipsis]: 9 }
const measured: string[] = []
const measure = (text: string) => {
  measured.push(text)
  return [...text].reduce((sum, char) => sum + (widths[char] ?? 7), 0)
}

describe('fitTextOf', () => {
  const fit = fitTextOf(measure)

  it('shows a text whole when its summed advances and the margin fit the room', () => {
    // 5 × 7 = 35 px, with the 1 px margin: 36.
    expect(fit('Marco', 36)).toBe('Marco')
    expect(fit('iiiii', 16)).toBe('iiiii')
    expect(fit('', 0)).toBe('')
  })

  it('cuts a text that does not fit to the longest start that leaves room for the ellipsis', () => {
    // 'Marco' is 35 px: not within 35 - 1. 'Mar' + '…' is 21 + 9 = 30 ≤ 34; 'Marc…' 37 is not.
    expect(fit('Marco', 35)).toBe(`Mar${ellipsis}`)
    // Wide letters cut sooner than narrow ones in the same room.
    expect(fit('WWWWWWWW', 40)).toBe(`WW${ellipsis}`)
    expect(fit('iiiiiiiiiiiiiiiiiii', 40)).toBe(`iiiiiiiiii${ellipsis}`)
  })

  it('never shows a cut text wider than its room', () => {
    for (const text of ['john.costa48@company2501.example', 'Zoë Ångström-Øre', 'WiWiWiWiWiWi Wi'])
      for (let room = 10; room < 300; room += 7) {
        const shown = fit(text, room)
        expect(shown).not.toBeNull()
        expect(measure(shown!)).toBeLessThanOrEqual(room - 1)
        if (shown !== text) expect(text.startsWith(shown!.slice(0, -1))).toBe(true)
      }
  })

  it('drops the space before the ellipsis and keeps an accent with its letter', () => {
    expect(fit('Company 2501', 7 * 8 + 9 + 1)).toBe(`Company${ellipsis}`)
    // 'Ze' then a combining acute: cut between them, the letter goes with its accent.
    expect(fit('Ze\u0301phyrine', 7 * 2 + 9 + 1)).toBe(`Z${ellipsis}`)
  })

  it('leaves to the browser a text it cannot measure, and a room too small for the ellipsis', () => {
    expect(fit('山田 太郎', 500)).toBeNull()
    expect(fit('tab\there', 500)).toBeNull()
    // Marks that break a line or turn a text's direction: the browser lays those out.
    expect(fit('one\u2028two', 500)).toBeNull()
    expect(fit('\u202eabc', 500)).toBeNull()
    expect(fit('\u0085next', 500)).toBeNull()
    expect(fit('Ünïcödé — “quoted” 10 €', 500)).toBe('Ünïcödé — “quoted” 10 €')
    expect(fit('Maria', 9)).toBeNull()
    // A character past what is measured, beyond where the text is cut, does not matter.
    expect(fit(`Maria Garcia 山田`, 45)).toBe(`Maria${ellipsis}`)
  })

  it('measures each character once', () => {
    measured.length = 0
    const once = fitTextOf(measure)
    once('abcabc', 500)
    once('cab', 500)
    expect(measured.filter((text) => text !== ellipsis).sort()).toEqual(['a', 'b', 'c'])
  })
})
