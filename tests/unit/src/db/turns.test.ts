import { afterEach, describe, expect, it, vi } from 'vitest'
import { nextTurn } from '@/db/turns'

describe('a turn between slices of work', () => {
  afterEach(() => vi.useRealTimers())

  it('lets a message that came in meanwhile be handled before the work goes on', async () => {
    const order: string[] = []
    const channel = new MessageChannel()
    channel.port1.onmessage = () => order.push('message')
    const work = (async () => {
      for (let slice = 0; slice < 3; slice++) {
        order.push(`slice ${slice}`)
        if (slice === 0) channel.port2.postMessage(null)
        await nextTurn()
      }
    })()
    await work
    channel.port1.close()
    expect(order).toEqual(['slice 0', 'message', 'slice 1', 'slice 2'])
  })

  it('waits for no timer: a loop of turns is not held to the 4 ms of a nested zero timeout', async () => {
    vi.useFakeTimers()
    let turns = 0
    for (let slice = 0; slice < 20; slice++) {
      await nextTurn()
      turns++
    }
    // No fake timer was run: each turn came back through the message channel alone.
    expect(vi.getTimerCount()).toBe(0)
    expect(turns).toBe(20)
    // A turn waiting on a timer never comes back under fake timers: the test fails at its time limit.
  }, 2_000)
})
