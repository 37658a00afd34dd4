import { describe, expect, it } from 'vitest'
import { SlidingWindow } from '../../../../electron/sandbox/rate-limit'

describe('SlidingWindow', () => {
  it('allows `limit` hits per window for each identity and does not count refusals', () => {
    const window = new SlidingWindow()
    const hits = [0, 10, 20, 30].map((at) => window.take('a', 3, 100, at))
    expect(hits).toEqual([true, true, true, false])
    expect(window.take('b', 3, 100, 30)).toBe(true)
    expect(window.take('a', 3, 100, 100)).toBe(true)
    expect(window.take('a', 3, 100, 101)).toBe(false)
    expect(window.take('a', 3, 100, 110)).toBe(true)
  })
})
