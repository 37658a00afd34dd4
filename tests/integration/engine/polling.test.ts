import { afterEach, describe, expect, it } from 'vitest'
import type { Bed } from './harness'
import { engineFor, peopleRows, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const emailOnly = { email: true, phone: false, catchAll: false }

describe('polling an enrichment', () => {
  it('learns how long the service takes per lead and polls the later chunks about once', async () => {
    // Ten times the default guess per lead: the first chunks are polled too early, the later ones when done.
    bed = await startBed({ leadWorkMs: 3_000 })
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    // The sandbox builds its world of contacts on first use; built now, it cannot hold the event loop
    // while the first chunk's early polls are due, which would let that chunk finish before them.
    const warmUp = await fetch(`${bed.sandbox.baseUrl}/enrich_profile/company`, {
      method: 'POST',
      headers: { 'X-API-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ company_domain: 'company1.com' }),
    })
    await warmUp.text()
    const engine = engineFor(bed, key, { chunkSize: 10 })
    const job = engine.manager.startEnrichment({ rows: peopleRows(400), options: emailOnly })
    const done = await engine.manager.settled(job.id)
    expect(done.state).toBe('done')

    const log = await bed.sandbox.control.log()
    const polls = log.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/async/'))
    const pollsOf = (chunk: number): number =>
      polls.filter((r) => r.path === `/async/${done.chunks[chunk]!.requestId}`).length
    const firstPolls = pollsOf(0)
    const lastPolls = done.chunks.slice(-10).map((_, i) => pollsOf(done.chunks.length - 10 + i))
    // Without learning every chunk would take as many polls as the first one (four or five here).
    // Learnt, a chunk takes one poll, two when its first is early: about one in ten on a quiet machine,
    // more when a loaded machine slows the sandbox down after the estimate was made.
    expect(firstPolls).toBeGreaterThanOrEqual(2)
    expect(lastPolls.reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(20)
  })
})
