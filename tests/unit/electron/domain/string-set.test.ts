import { describe, expect, it } from 'vitest'
import { StringSet } from '../../../../electron/domain/string-set'

/** A small generator, so a failure can be run again. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0
    return state / 2 ** 32
  }
}

describe('StringSet', () => {
  it.each([
    ['its own hash', undefined],
    // Strings of nearly the same length in one hash: each is told apart by its characters alone,
    // a string from those it begins and those that begin it. Negative, so that their slots are the
    // table's last and a search wraps round to its first.
    ['a hash of the length in fours', (value: string) => (value.length >> 2) - 4],
  ])('answers as a Set does over many strings, whatever their length, script or prefix (%s)', (_, hash) => {
    const next = random(7)
    const alphabet = ['a', 'b', 'ë', 'Z', ' ', '@', '.', '😀', '\u0000', '中']
    const word = (): string => {
      const length = Math.floor(next() * 12)
      let out = ''
      for (let at = 0; at < length; at++) out += alphabet[Math.floor(next() * alphabet.length)]!
      return out
    }
    const set = new StringSet(hash)
    const oracle = new Set<string>()
    // Enough strings to join many texts and grow the tables many times; short words repeat often.
    for (let at = 0; at < (hash ? 12_000 : 30_000); at++) {
      const value = next() < 0.3 && oracle.size > 0 ? `${word()}${at % 97}` : word()
      expect(set.has(value)).toBe(oracle.has(value))
      expect(set.add(value)).toBe(!oracle.has(value))
      oracle.add(value)
      expect(set.size).toBe(oracle.size)
    }
    for (const value of oracle) expect(set.has(value)).toBe(true)
    // A string is not found by a longer one it begins, nor by one it begins.
    set.add('maria garcia@acme.com')
    expect(set.has('maria garcia@acme.co')).toBe(false)
    expect(set.has('maria garcia@acme.com.')).toBe(false)
  })

  it('tells a million identities apart, repeats found again', () => {
    const set = new StringSet()
    let added = 0
    for (let at = 0; at < 1_000_000; at++)
      if (set.add(`first${at} last${at % 1000}@company${at % 5000}.com`)) added++
    expect(added).toBe(1_000_000)
    let repeated = 0
    for (let at = 0; at < 1_000_000; at += 7)
      if (!set.add(`first${at} last${at % 1000}@company${at % 5000}.com`)) repeated++
    expect(repeated).toBe(Math.ceil(1_000_000 / 7))
    expect(set.size).toBe(1_000_000)
    expect(set.has('first1000000 last0@company0.com')).toBe(false)
  })
})
