import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../electron/engine/client/client'
import { RateGovernor } from '../../../electron/engine/client/governor'
import type { JobEvent } from '../../../electron/engine/jobs/events'
import type { Bed } from './harness'
import { allRows, engineFor, peopleRows, scaledSettings, startBed } from './harness'

let bed: Bed | undefined
afterEach(async () => {
  await bed?.close()
  bed = undefined
})

const emailOnly = { email: true, phone: false, catchAll: false }

async function postsTo(target: Bed, path: string): Promise<number> {
  const log = await target.sandbox.control.log()
  return log.requests.filter((r) => r.method === 'POST' && r.path === path).length
}

describe('job manager', () => {
  it('cancel is an outcome: the job ends cancelled and never sends another POST', async () => {
    bed = await startBed({ leadWorkMs: 5000 })
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const engine = engineFor(bed, key, { chunkSize: 10, maxChunksInFlight: 1 })
    const job = engine.manager.startEnrichment({ rows: peopleRows(100), options: emailOnly })
    while ((await postsTo(bed, '/async')) === 0) await new Promise((resolve) => setTimeout(resolve, 10))
    const cancelled = await engine.manager.cancel(job.id)
    expect(cancelled.state).toBe('cancelled')
    const sent = await postsTo(bed, '/async')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await postsTo(bed, '/async')).toBe(sent)
    expect(sent).toBeLessThan(10)
    expect(engine.ledger.load(job.id)?.state).toBe('cancelled')
  })

  it('passes webhook URLs through, the per-lead one together with the batch one', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 100 })
    const engine = engineFor(bed, key)
    const job = engine.manager.startEnrichment({
      rows: peopleRows(2),
      options: {
        ...emailOnly,
        webhook: 'http://127.0.0.1:9/batch',
        contactWebhook: 'http://127.0.0.1:9/lead',
      },
    })
    await engine.manager.settled(job.id)
    const log = await bed.sandbox.control.log()
    expect(log.requests.find((r) => r.method === 'POST')?.body).toMatchObject({
      webhook: 'http://127.0.0.1:9/batch',
      contact_webhook: 'http://127.0.0.1:9/lead',
      push_contact_individually: true,
      enrich_email_address: true,
      enrich_phone_number: false,
      verify_catch_all: false,
    })
  })

  it('announces results only after they are on disk, and serves what was not acknowledged', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 1000 })
    const engine = engineFor(bed, key, { chunkSize: 10 })
    const seen: JobEvent[] = []
    engine.manager.subscribe((event) => {
      if (event.type === 'results') {
        // The batch named by the event must already be readable from the ledger.
        expect(engine.ledger.results(event.jobId, event.seq - 1, 1).batches[0]?.seq).toBe(event.seq)
      }
      seen.push(event)
    })
    const job = engine.manager.startEnrichment({ rows: peopleRows(30), options: emailOnly })
    await engine.manager.settled(job.id)
    const announced = seen.filter((event) => event.type === 'results')
    expect(announced).toHaveLength(3)

    const first = engine.manager.unacknowledged(job.id, 2)
    expect(first.batches).toHaveLength(2)
    engine.manager.ack(job.id, first.cursor)
    const rest = engine.manager.unacknowledged(job.id)
    expect(rest.batches.map((batch) => batch.seq)).toEqual([3])
    expect(rest.complete).toBe(true)
    expect(engine.manager.results(job.id, 0).batches).toHaveLength(3)
  })

  it('throttles progress events, always delivering the final state', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 10_000 })
    const engine = engineFor(bed, key, { chunkSize: 5, progressEventsPerSecond: 2 })
    const progress: number[] = []
    engine.manager.subscribe((event) => {
      if (event.type === 'progress') progress.push(Date.now())
    })
    const job = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(100), options: emailOnly }).id,
    )
    expect(job.state).toBe('done')
    const regular = progress.slice(1).filter((at, i) => at - progress[i]! < 400)
    // Only the forced ones (state changes) may come closer together than the throttle interval.
    expect(regular.length).toBeLessThanOrEqual(3)
  })

  it('refuses to run a job another live process holds, without touching its record', async () => {
    bed = await startBed()
    const { key } = await bed.sandbox.control.createAccount({ credits: 100 })
    const engine = engineFor(bed, key)
    const job = await engine.manager.settled(
      engine.manager.startEnrichment({ rows: peopleRows(3), options: emailOnly }).id,
    )
    const { writeFileSync } = await import('node:fs')
    const { join } = await import('node:path')
    writeFileSync(join(bed.stateDir, 'jobs', job.id, 'lock'), String(process.ppid))
    const other = engineFor(bed, key)
    other.manager.resume(job.id)
    const refused = await other.manager.settled(job.id)
    expect(refused.error?.code).toBe('locked')
    expect(engine.ledger.load(job.id)?.state).toBe('done')
  })

  it('keeps close to the rate limit without a 429 storm when its ceiling is set too high', async () => {
    bed = await startBed({ rateLimitPerMinute: 20 })
    const { key } = await bed.sandbox.control.createAccount({ credits: 10 })
    // Twice the real limit: only the 429s can teach the governor where the limit is.
    const settings = scaledSettings({ rateLimitPerMinute: 40, maxAttempts: 10 })
    const client = createServiceClient({
      baseUrl: bed.sandbox.baseUrl,
      apiKey: key,
      settings,
      governor: new RateGovernor({ ceiling: 40, windowMs: settings.rateWindowMs }),
    })
    const profiles = await Promise.all(
      Array.from({ length: 100 }, (_, i) => client.companyProfile({ company_domain: `firm${i}.com` })),
    )
    expect(profiles).toHaveLength(100)
    const log = await bed.sandbox.control.log()
    const refused = log.requests.filter((r) => r.status === 429).length
    expect(refused).toBeGreaterThan(0)
    expect(refused / log.requests.length).toBeLessThan(0.2)
  })
})

describe('resuming a job that was on hold', () => {
  it('shows on_hold again at once and completes after a top-up', async () => {
    bed = await startBed()
    const { key, accountId } = await bed.sandbox.control.createAccount({ credits: 3 })
    const first = engineFor(bed, key, { pollOnHoldIntervalMs: 5_000 })
    const job = first.manager.startEnrichment({ rows: peopleRows(20), options: emailOnly })
    while (first.manager.get(job.id)?.state !== 'on_hold')
      await new Promise((resolve) => setTimeout(resolve, 10))
    // What the disk held at the moment the process died.
    const snapshot = first.ledger.load(job.id)!
    await first.manager.cancel(job.id)
    first.ledger.save(snapshot)

    const second = engineFor(bed, key, { pollOnHoldIntervalMs: 5_000 })
    const states: string[] = []
    second.manager.subscribe((event) => {
      if (event.type === 'state') states.push(event.state)
    })
    second.manager.resumeAll()
    while (!states.includes('on_hold')) await new Promise((resolve) => setTimeout(resolve, 10))
    await bed.sandbox.control.topUp(accountId, 100)
    const done = await second.manager.settled(job.id)
    expect(done.state).toBe('done')
    expect(allRows(second, job.id)).toHaveLength(20)
    expect(await postsTo(bed, '/async')).toBe(1)
  })

  it('two managers of one process never run the same job side by side', async () => {
    bed = await startBed({ leadWorkMs: 3000 })
    const { key } = await bed.sandbox.control.createAccount({ credits: 100 })
    const first = engineFor(bed, key)
    const job = first.manager.startEnrichment({ rows: peopleRows(20), options: emailOnly })
    const second = engineFor(bed, key)
    second.manager.resume(job.id)
    expect((await second.manager.settled(job.id)).error?.code).toBe('locked')
    expect((await first.manager.settled(job.id)).state).toBe('done')
    expect(await postsTo(bed, '/async')).toBe(1)
  })
})
