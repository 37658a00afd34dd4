import { describe, expect, it } from 'vitest'
import { appendBounded, ByteBoundedLog } from '../../../../electron/sandbox/bounded-log'

describe('appendBounded', () => {
  it('keeps the newest entries up to the limit', () => {
    const log: number[] = []
    for (let i = 1; i <= 5; i++) appendBounded(log, i, 3)
    expect(log).toEqual([3, 4, 5])
  })
})

describe('ByteBoundedLog', () => {
  it('drops the oldest entries past its byte limit, keeping the newest even when it alone is over', () => {
    const log = new ByteBoundedLog<string>(100, 10)
    log.push('a', 4)
    log.push('b', 4)
    log.push('c', 4)
    expect(log.entries).toEqual(['b', 'c'])
    expect(log.byteSize).toBe(8)
    log.push('huge', 50)
    expect(log.entries).toEqual(['huge'])
    log.clear()
    expect([log.entries, log.byteSize]).toEqual([[], 0])
  })

  it('drops the oldest entries past its count', () => {
    const log = new ByteBoundedLog<number>(2, 1_000)
    for (let i = 1; i <= 4; i++) log.push(i, 1)
    expect(log.entries).toEqual([3, 4])
  })
})
