import { afterEach, describe, expect, it } from 'vitest'
import type { Bed } from './harness'
import { allRows, engineFor, peopleRows, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const emailOnly = { email: true, phone: false, catchAll: false }

describe('enrichment against the sandbox', () => {
  it('enriches 10,000 rows through 429 bursts, 500s and dropped connections, losing and double-sending nothing', async () => {
    bed = await startBed({ leadWorkMs: 30 })
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 50_000 })
    await bed.sandbox.control.setFaults([
      // Two bursts of 429s on every endpoint, early and mid-run.
      { endpoint: '*', kind: 'status429', skip: 40, times: 25 },
      { endpoint: '*', kind: 'status429', skip: 250, times: 25 },
      // Refused before creating anything, though the client cannot know that: these become uncertain.
      { endpoint: 'POST /async', kind: 'drop', probability: 0.03 },
      { endpoint: 'POST /async', kind: 'status500', probability: 0.03 },
      { endpoint: 'GET /async/:id', kind: 'status500', probability: 0.1 },
      { endpoint: 'GET /async/:id', kind: 'drop', probability: 0.1 },
    ])
    const engine = engineFor(bed, key, { maxChunksInFlight: 10 })
    const rows = peopleRows(10_000)
    const job = engine.manager.startEnrichment({ rows, options: emailOnly, onUncertain: 'resubmit' })
    let done = await engine.manager.settled(job.id)
    // A chunk unlucky twice stays uncertain after its one automatic resubmission: decide explicitly.
    for (let decisions = 0; done.state === 'needs_attention' && decisions < 5; decisions++) {
      await engine.manager.resolveUncertain(job.id, 'resubmit')
      done = await engine.manager.settled(job.id)
    }

    expect(done.state).toBe('done')
    const results = allRows(engine, job.id)
    expect(results).toHaveLength(10_000)
    expect(new Set(results.map((row) => row.key))).toEqual(new Set(rows.map((row) => row.key)))
    expect(results.every((row) => row.status === 'found' || row.status === 'not_found')).toBe(true)

    const log = await bed.sandbox.control.log()
    const created = log.requests.filter((r) => r.method === 'POST' && r.path === '/async' && r.status === 201)
    expect(created).toHaveLength(100)
    const sentKeys = created.flatMap((r) =>
      (r.body as { data: { custom_fields: Record<string, string> }[] }).data.map(
        (lead) => lead.custom_fields.leadkeeper_row_key,
      ),
    )
    expect(new Set(sentKeys).size).toBe(10_000)
    expect(log.requests.some((r) => r.status === 429)).toBe(true)
    expect(log.requests.some((r) => r.status === null)).toBe(true)
    expect(done.chunks.some((chunk) => chunk.submissions > 1)).toBe(true)
    const charged = log.charges
      .filter((c) => c.accountId === accountId)
      .reduce((sum, c) => sum + c.credits, 0)
    expect(done.creditsConsumed).toBeCloseTo(charged, 5)
  })

  it('sends identical rows once and fans the result out; known and unidentifiable rows are not sent', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key)
    const job = engine.manager.startEnrichment({
      rows: [
        { key: 'a', first_name: 'Ada', last_name: 'Lovelace', company_domain: 'analytical.com' },
        {
          key: 'b',
          first_name: ' ADA',
          last_name: 'lovelace ',
          company_domain: 'https://www.analytical.com/about',
        },
        { key: 'c', full_name: 'Alan Turing', website: 'http://bletchley.com' },
        { key: 'd', first_name: 'Grace', last_name: 'Hopper', company_domain: 'navy.com', known: true },
        { key: 'e', first_name: 'Nobody' },
      ],
      options: emailOnly,
    })
    const done = await engine.manager.settled(job.id)
    const byKey = new Map(allRows(engine, job.id).map((row) => [row.key, row]))
    expect(done.state).toBe('done')
    expect(byKey.get('a')?.data).toEqual(byKey.get('b')?.data)
    expect(byKey.get('d')?.status).toBe('known')
    expect(byKey.get('e')?.status).toBe('invalid')
    expect(['found', 'not_found']).toContain(byKey.get('c')?.status)
    const log = await bed.sandbox.control.log()
    const posts = log.requests.filter((r) => r.path === '/async' && r.method === 'POST')
    expect(posts).toHaveLength(1)
    expect((posts[0]?.body as { data: unknown[] }).data).toEqual([
      {
        first_name: 'Ada',
        last_name: 'Lovelace',
        company_domain: 'analytical.com',
        custom_fields: { leadkeeper_row_key: 'a' },
      },
      {
        first_name: 'Alan',
        last_name: 'Turing',
        company_domain: 'bletchley.com',
        custom_fields: { leadkeeper_row_key: 'c' },
      },
    ])
  })

  it('counts what it bought from the rows it wrote: emails and phones found, rows found without', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 5000 })
    const engine = engineFor(bed, key, { chunkSize: 25 })
    const rows = peopleRows(120)
    // A person named twice counts twice, as rows do.
    rows.push({ ...rows[3]!, key: 'twin-of-3' })
    const job = engine.manager.startEnrichment({
      rows,
      options: { email: true, phone: true, catchAll: false },
    })
    const done = await engine.manager.settled(job.id)
    expect(done.state).toBe('done')
    const results = allRows(engine, job.id)
    const found = results.filter((row) => row.status === 'found')
    const holding = (field: string) =>
      found.filter((row) => typeof row.data?.[field] === 'string' && row.data[field] !== '').length
    const emails = holding('contact_email_address')
    const phones = holding('contact_phone_number')
    expect(emails).toBeGreaterThan(0)
    expect(found.length - emails).toBeGreaterThan(0)
    expect(done.counts).toEqual({
      rows: 121,
      done: 121,
      found: found.length,
      notFound: results.filter((row) => row.status === 'not_found').length,
      emails,
      foundWithoutEmail: found.length - emails,
      phones,
      foundWithoutPhone: found.length - phones,
    })
  })

  it('stops submitting before the credit cap can be passed and says how to continue', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key, { chunkSize: 10 })
    const job = engine.manager.startEnrichment({ rows: peopleRows(50), options: emailOnly, maxCredits: 25 })
    const capped = await engine.manager.settled(job.id)
    expect(capped.state).toBe('capped')
    expect(capped.error?.message).toMatch(/credit cap of 25/)
    expect(capped.creditsConsumed).toBeLessThanOrEqual(25)
    expect(capped.chunks.filter((chunk) => chunk.state === 'pending').length).toBeGreaterThan(0)
    const log = await bed.sandbox.control.log()
    const posts = log.requests.filter((r) => r.path === '/async' && r.method === 'POST')
    expect(posts.length).toBe(capped.requestsSent)

    // A higher cap: the job goes on from where it stopped, sending only what it had not sent.
    engine.manager.setCap(job.id, 1000)
    const done = await engine.manager.settled(job.id)
    expect(done.state).toBe('done')
    expect(done.maxCredits).toBe(1000)
    expect(
      allRows(engine, job.id).filter((row) => row.status === 'found' || row.status === 'not_found'),
    ).toHaveLength(50)
    const allPosts = (await bed.sandbox.control.log()).requests.filter(
      (r) => r.path === '/async' && r.method === 'POST',
    )
    expect(allPosts).toHaveLength(5)
    expect(() => engine.manager.setCap('no-such-job', 5)).toThrow(/Unknown job/)
  })

  it('takes a new cap while running, before its next submission', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key, { chunkSize: 10 })
    const job = engine.manager.startEnrichment({ rows: peopleRows(50), options: emailOnly, maxCredits: 25 })
    // Still running: the cap that would stop it at 25 credits is raised before it gets there.
    expect(engine.manager.setCap(job.id, 1000).maxCredits).toBe(1000)
    const done = await engine.manager.settled(job.id)
    expect(done.state).toBe('done')
    const posts = (await bed.sandbox.control.log()).requests.filter(
      (r) => r.path === '/async' && r.method === 'POST',
    )
    expect(posts).toHaveLength(5)
  })

  it('pauses on_hold when credits run out and finishes by itself after a top-up', async () => {
    bed = await startBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 5 })
    const engine = engineFor(bed, key, { pollOnHoldIntervalMs: 5_000 })
    const states: string[] = []
    engine.manager.subscribe((event) => {
      if (event.type === 'state') states.push(event.state)
    })
    const job = engine.manager.startEnrichment({ rows: peopleRows(40), options: emailOnly })
    await waitFor(() => states.includes('on_hold'))
    expect(engine.manager.get(job.id)?.error?.message).toMatch(/Out of credits/)
    await bed.sandbox.control.topUp(accountId, 1000)
    const done = await engine.manager.settled(job.id)
    expect(done.state).toBe('done')
    expect(allRows(engine, job.id)).toHaveLength(40)
    const log = await bed.sandbox.control.log()
    expect(log.requests.filter((r) => r.path === '/async' && r.method === 'POST')).toHaveLength(1)
  })

  it('fails fast on a refused plan and on a deactivated key, keeping the rows for a later resume', async () => {
    bed = await startBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 100, phone: false })
    const engine = engineFor(bed, key)
    const refused = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(5), options: { ...emailOnly, phone: true } }).id,
    )
    expect(refused.state).toBe('failed')
    expect(refused.error?.code).toBe('plan')
    expect(refused.chunks[0]?.state).toBe('pending')

    await bed.sandbox.control.deactivateKey(key)
    const denied = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(5), options: emailOnly }).id,
    )
    expect(denied.state).toBe('failed')
    expect(denied.error?.code).toBe('auth')
    void accountId
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const start = Date.now()
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
