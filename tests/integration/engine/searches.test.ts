import { afterEach, describe, expect, it } from 'vitest'
import type { Bed } from './harness'
import { allRows, engineFor, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const companyFilters = { company_industry: { include: ['Software Development'] } }

describe('lead search', () => {
  it('runs with filters, limit, offset and max_leads, and charges only for enrichment', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startLeadSearch({
        search: { filters: { job_title: { include: ['Engineer'] } }, limit: 10, offset: 0, maxLeads: 10 },
      }).id,
    )
    expect(job.state).toBe('done')
    expect(job.creditsConsumed).toBe(0)
    const rows = allRows(engine, job.id)
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.length).toBeLessThanOrEqual(10)
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length)
    // No email was asked for, so none was looked up: no status, rather than "not found".
    for (const row of rows) {
      expect(row.emailStatus).toBeUndefined()
      expect(row.data).not.toHaveProperty('contact_email_address_status')
      expect(row.data).toHaveProperty('contact_full_name')
    }
    const log = await bed.sandbox.control.log()
    expect(log.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      limit: 10,
      offset: 0,
      max_leads: 10,
    })
  })

  it('reports a refused search with the service message', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(engine.manager.startLeadSearch({ search: { filters: {} } }).id)
    expect(job.state).toBe('failed')
    expect(job.error?.code).toBe('bad_request')
    expect(job.error?.message).toMatch(/Filters parameter/)
  })
})

describe('company search', () => {
  it('fetches pages with a constant limit and a growing offset, de-duplicating across pages', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startCompanySearch({ search: { filters: companyFilters, limit: 20, pages: 3 } }).id,
    )
    expect(job.state).toBe('done')
    expect(job.chunks.map((chunk) => chunk.offset)).toEqual([0, 20, 40])
    const rows = allRows(engine, job.id)
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length)
    expect(rows.length).toBe(job.counts.rows)
    const log = await bed.sandbox.control.log()
    const bodies = log.requests
      .filter((r) => r.method === 'POST')
      .map((r) => r.body as { limit: number; offset: number })
    expect(bodies.map((b) => [b.limit, b.offset])).toEqual([
      [20, 0],
      [20, 20],
      [20, 40],
    ])
    expect(job.creditsConsumed).toBeGreaterThan(0)
    // What the search may cost, once the first answer told how many pages there are: the three
    // pages asked for, 20 companies each, at the published price of a company search result (1).
    expect(job.totalAvailable).toBeGreaterThan(60)
    expect(job.estimateMax).toBe(3 * 20 * 1)
  })

  it('fetches every page with no page count, stopping at companies_found', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startCompanySearch({
        search: { filters: companyFilters, limit: 50 },
      }).id,
    )
    expect(job.state).toBe('done')
    expect(job.totalAvailable).toBeDefined()
    const pages = Math.ceil(job.totalAvailable! / 50)
    // The filter matches several pages, so that "every page" means more than the first.
    expect(pages).toBeGreaterThan(1)
    expect(job.chunks).toHaveLength(pages)
    expect(job.estimateMax).toBe(pages * 50 * 1)
    const log = await bed.sandbox.control.log()
    const offsets = log.requests
      .filter((r) => r.method === 'POST')
      .map((r) => (r.body as { offset: number }).offset)
    expect(offsets).toEqual(Array.from({ length: pages }, (_, page) => page * 50))
    const rows = allRows(engine, job.id)
    expect(rows).toHaveLength(job.totalAvailable!)
    expect(new Set(rows.map((row) => row.key)).size).toBe(rows.length)
  })

  it('a page that goes on_hold is final: the job fails saying it must be submitted again, nothing charged', async () => {
    bed = await startBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 0.5 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startCompanySearch({ search: { filters: companyFilters, limit: 10, pages: 1 } }).id,
    )
    expect(job.state).toBe('failed')
    expect(job.error?.code).toBe('credits')
    expect(job.error?.message).toMatch(/submit it again/)
    expect(job.chunks[0]?.state).toBe('held_final')
    expect(await bed.sandbox.control.balance(accountId)).toBe(0.5)

    await bed.sandbox.control.topUp(accountId, 100)
    engine.manager.resume(job.id)
    const resumed = await engine.manager.settled(job.id)
    expect(resumed.state).toBe('done')
    expect(resumed.chunks[0]?.submissions).toBe(2)
  })

  it('a search stuck in processing ends at the time-out with a clear error naming the request', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    await bed.sandbox.control.setFaults([{ endpoint: 'POST /company_finder/async', kind: 'stuck' }])
    const engine = engineFor(bed, key, { pollTimeoutMs: 30_000 })
    const job = await engine.manager.settled(
      engine.manager.startCompanySearch({ search: { filters: companyFilters, limit: 10, pages: 1 } }).id,
    )
    expect(job.state).toBe('needs_attention')
    expect(job.chunks[0]?.state).toBe('timed_out')
    expect(job.chunks[0]?.error?.message).toContain(job.chunks[0]!.requestId!)
    expect(job.chunks[0]?.error?.message).toMatch(/still processing after \d+ s/)
  })
})

describe('lead search refusals', () => {
  it('an out-of-bounds limit is refused (422) as rejected, with the service message', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startLeadSearch({
        search: { filters: { job_title: { include: ['Engineer'] } }, limit: 100_000 },
      }).id,
    )
    expect(job.state).toBe('failed')
    expect(job.error).toMatchObject({ code: 'rejected', message: 'Lead finder was not accepted.' })
  })

  it('an exhausted free quota is a plan refusal', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000, freeLeadSearches: 0 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startLeadSearch({ search: { filters: { job_title: { include: ['Engineer'] } } } }).id,
    )
    expect(job.state).toBe('failed')
    expect(job.error?.code).toBe('plan')
    expect(job.error?.message).toMatch(/out of free lead finder requests/)
  })
})
