import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type {
  ChannelInput,
  ChannelName,
  ChannelOutput,
  EnrichmentRowInput,
} from '../../../electron/shared/contract'
import { dispatch } from '../../../electron/backend/dispatch'
import { startTestBackend, type TestBackend } from '../../support/backend'

let bed: TestBackend
beforeEach(async () => {
  bed = await startTestBackend()
})
afterEach(async () => {
  await bed.close()
})

async function call<C extends ChannelName>(channel: C, input?: ChannelInput<C>): Promise<ChannelOutput<C>> {
  const result = await dispatch(bed.backend.handlers, channel, input)
  if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`)
  return result.data as ChannelOutput<C>
}

function rows(count: number): EnrichmentRowInput[] {
  return Array.from({ length: count }, (_, index) => ({
    key: `row-${index}`,
    first_name: `First${index % 150}`,
    last_name: `Last${index % 150}`,
    company_domain: `company${index % 150}.example.com`,
  }))
}

describe('jobs over the contract', () => {
  it('stages rows in batches, estimates, runs an enrichment and delivers every row once by key', async () => {
    const input = rows(250)
    const first = await call('jobs/stageRows', { rows: input.slice(0, 120) })
    const { stagingId, staged } = await call('jobs/stageRows', {
      stagingId: first.stagingId,
      rows: input.slice(120),
    })
    expect(staged).toBe(250)
    const estimate = await call('jobs/estimate', { stagingId, email: true, phone: false, catchAll: false })
    expect(estimate).toMatchObject({
      rows: 250,
      toSend: 150,
      duplicates: 100,
      minCredits: 0,
      maxCredits: 150,
    })

    const done = bed.next('jobs/state', (event) => event.jobId === 'list-1-run-1' && event.state === 'done')
    const job = await call('jobs/startEnrichment', {
      jobId: 'list-1-run-1',
      stagingId,
      label: 'First list',
      options: { email: true, phone: false, catchAll: false },
    })
    expect(job).toMatchObject({ id: 'list-1-run-1', kind: 'enrichment' })
    await done

    const seen = new Map<string, string>()
    let cursor = 0
    for (;;) {
      const page = await call('jobs/results', { jobId: 'list-1-run-1', after: cursor })
      for (const batch of page.batches)
        for (const row of batch.rows) {
          expect(seen.has(row.key)).toBe(false)
          seen.set(row.key, row.status)
        }
      cursor = page.cursor
      if (page.complete) break
    }
    expect(seen.size).toBe(250)
    expect([...seen.values()].every((status) => status === 'found' || status === 'not_found')).toBe(true)
    expect(bed.events.some((event) => event.event === 'jobs/progress')).toBe(true)

    // Unacknowledged results come a page at a time: with pages of one batch, every batch in turn.
    const drained = new Set<string>()
    let pages = 0
    for (;;) {
      const page = await call('jobs/unacknowledged', { jobId: 'list-1-run-1', limit: 1 })
      pages += 1
      expect(page.batches.length).toBeLessThanOrEqual(1)
      for (const batch of page.batches) for (const row of batch.rows) drained.add(row.key)
      await call('jobs/ack', { jobId: 'list-1-run-1', cursor: page.cursor })
      if (page.complete) break
    }
    expect(pages).toBeGreaterThan(1)
    expect(drained).toEqual(new Set(seen.keys()))
    expect(cursor).toBeGreaterThan(1)
    const rest = await call('jobs/unacknowledged', { jobId: 'list-1-run-1' })
    expect(rest.batches).toHaveLength(0)
    expect(rest.complete).toBe(true)
  })

  it('resumes instead of paying twice when the same job is started again', async () => {
    const { stagingId } = await call('jobs/stageRows', { rows: rows(40) })
    const done = bed.next('jobs/state', (event) => event.state === 'done')
    await call('jobs/startEnrichment', {
      jobId: 'list-2-run-1',
      stagingId,
      label: 'Twice',
      options: { email: true, phone: false, catchAll: false },
    })
    await done
    const again = await call('jobs/stageRows', { rows: rows(40) })
    await call('jobs/startEnrichment', {
      jobId: 'list-2-run-1',
      stagingId: again.stagingId,
      label: 'Twice',
      options: { email: true, phone: false, catchAll: false },
    })
    const log = await bed.sandbox.control.log()
    expect(
      log.requests.filter((entry) => entry.method === 'POST' && entry.path.endsWith('/async')),
    ).toHaveLength(1)
  })

  it('refuses unknown jobs, stale stagings and malformed rows with values', async () => {
    expect(await dispatch(bed.backend.handlers, 'jobs/get', { jobId: 'no-such-job' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
    // A cap change has its own channel and its own errors, not a generic internal one.
    expect(
      await dispatch(bed.backend.handlers, 'jobs/setCap', { jobId: 'no-such-job', maxCredits: 5 }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(
      await dispatch(bed.backend.handlers, 'jobs/setCap', { jobId: 'no-such-job', maxCredits: -1 }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(
      await dispatch(bed.backend.handlers, 'jobs/estimate', {
        stagingId: '00000000-0000-4000-8000-000000000000',
        email: true,
        phone: false,
        catchAll: false,
      }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(
      await dispatch(bed.backend.handlers, 'jobs/stageRows', { rows: [{ key: 'a', first_name: 1 }] }),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
  })

  it('looks up a company for free and a lead profile, with not found as a value', async () => {
    const before = await bed.sandbox.control.balance('demo')
    const company = await dispatch(bed.backend.handlers, 'lookup/company', {
      company_domain: 'nowhere-at-all.invalid',
    })
    expect(company).toMatchObject({ ok: false, error: { code: 'not_found' } })
    const missing = await dispatch(bed.backend.handlers, 'lookup/company', {})
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_input' } })
    expect(await bed.sandbox.control.balance('demo')).toBe(before)
  })
})
