import { describe, expect, it } from 'vitest'
import { appendBounded } from '../../../../electron/sandbox/bounded-log'

describe('appendBounded', () => {
  it('keeps the newest entries up to the limit', () => {
    const log: number[] = []
    for (let i = 1; i <= 5; i++) appendBounded(log, i, 3)
    expect(log).toEqual([3, 4, 5])
  })
})
