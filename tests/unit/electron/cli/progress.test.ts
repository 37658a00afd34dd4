import { describe, expect, it } from 'vitest'
import { Reach } from '../../../../electron/engine/client/reach'
import { reachReporter } from '../../../../electron/cli/progress'

/** What a log file or a pipe receives. */
function sink() {
  let text = ''
  const stream = { isTTY: false, write: (chunk: string) => (text += chunk) }
  return { stream, lines: () => text.split('\n').filter(Boolean) }
}

describe('reachReporter', () => {
  it('says once per round of retries that the service cannot be reached, then that it answers again', () => {
    let clock = 1_000_000
    const now = () => clock
    const reach = new Reach(now)
    const { stream, lines } = sink()
    const stop = reachReporter(reach, stream, now)
    // 57 requests in flight all fail and each schedules its retry in about 8 s.
    for (let request = 0; request < 57; request++) {
      reach.failed('GET /async/:id: connection failed (ECONNREFUSED)')
      reach.retrying(8_000 + request)
    }
    expect(lines()).toEqual([
      "Can't reach the service (GET /async/:id: connection failed (ECONNREFUSED)) — retrying in 8 s",
    ])
    // The announced attempt came and failed again: one more line, with the next delay.
    clock += 8_100
    reach.failed('GET /async/:id: connection failed (ECONNREFUSED)')
    reach.retrying(16_000)
    reach.retrying(16_500)
    expect(lines()).toHaveLength(2)
    expect(lines()[1]).toMatch(/retrying in 16 s$/)
    reach.answered(200)
    reach.answered(200)
    expect(lines().slice(2)).toEqual(['Reached the service again; carrying on.'])
    stop()
    reach.failed('later')
    reach.retrying(1_000)
    expect(lines()).toHaveLength(3)
  })
})
