import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createServiceClient } from '../../../electron/engine/client/client'
import { seededRandom } from '../../../electron/engine/client/clock'
import { ServiceError } from '../../../electron/engine/client/errors'
import { RateGovernor } from '../../../electron/engine/client/governor'
import type { ReachView } from '../../../electron/engine/client/reach'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import { JobManager } from '../../../electron/engine/jobs/manager'
import { startSandbox, type Sandbox } from '../../../electron/sandbox'
import { allRows, peopleRows, scaledSettings, timeScale } from './harness'

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A sandbox that keeps its state on disk, so it can be stopped and started again on the same port. */
async function durableSandbox(port = 0, stateDir?: string): Promise<{ sandbox: Sandbox; stateDir: string }> {
  const dir = stateDir ?? mkdtempSync(join(tmpdir(), 'lk-reach-sandbox-'))
  if (!stateDir) cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const sandbox = await startSandbox({ port, timeScale, seed: 7, stateDir: dir, leadWorkMs: 30 })
  return { sandbox, stateDir: dir }
}

function portOf(sandbox: Sandbox): number {
  return Number(new URL(sandbox.url).port)
}

function clientOf(sandbox: Sandbox, apiKey: string, overrides = {}) {
  const settings = scaledSettings({ maxAttempts: 3, ...overrides })
  return createServiceClient({
    baseUrl: sandbox.baseUrl,
    apiKey,
    settings,
    random: seededRandom(5),
    governor: new RateGovernor({ ceiling: settings.rateLimitPerMinute, windowMs: settings.rateWindowMs }),
  })
}

describe('a service out of reach', () => {
  it('is reported as unreachable with the time of the next attempt, and online again once it answers', async () => {
    const { sandbox } = await durableSandbox()
    cleanups.push(() => sandbox.close())
    const client = clientOf(sandbox, sandbox.demoKey)
    const seen: ReachView[] = []
    client.reach.onChange((view) => seen.push(view))

    await client.companyProfile({ company_domain: 'example.com' }).catch(() => undefined)
    expect(client.reach.view().state).toBe('online')

    await sandbox.control.outage(1_500)
    const failure = await client
      .companyProfile({ company_domain: 'example.com' })
      .catch((error: unknown) => error)
    expect(failure).toBeInstanceOf(ServiceError)
    expect((failure as ServiceError).code).toBe('network')
    expect(client.reach.view().state).toBe('unreachable')
    expect(client.reach.view().detail).toMatch(/POST \/enrich_profile\/company: connection failed/)
    // Each attempt that got no answer said when the next one goes.
    const retries = seen.filter((view) => view.state === 'unreachable' && view.retryAt !== null)
    expect(retries.length).toBeGreaterThanOrEqual(2)

    await new Promise((resolve) => setTimeout(resolve, 1_600))
    await client.companyProfile({ company_domain: 'example.com' }).catch(() => undefined)
    expect(client.reach.view()).toMatchObject({ state: 'online', retryAt: null, detail: null })
  })

  it('stops a charged lookup that waits to try again, when the caller cancels, without sending it', async () => {
    const { sandbox } = await durableSandbox()
    cleanups.push(() => sandbox.close())
    // Long waits between attempts: only the cancel can end this call soon.
    const client = clientOf(sandbox, sandbox.demoKey, { maxAttempts: 6, retryBaseDelayMs: 60_000 })
    await sandbox.control.outage(2_000)
    const controller = new AbortController()
    const off = client.reach.onChange((view) => {
      if (view.retryAt !== null) controller.abort()
    })
    const started = Date.now()
    const failure = await client
      .leadProfile(
        { first_name: 'Ada', last_name: 'Lovelace', company_domain: 'example.com' },
        { signal: controller.signal },
      )
      .catch((error: unknown) => error)
    off()
    expect((failure as ServiceError).code).toBe('cancelled')
    expect(Date.now() - started).toBeLessThan(1_500)
    await new Promise((resolve) => setTimeout(resolve, 2_100))
    const log = await sandbox.control.log()
    expect(log.requests.filter((entry) => entry.path === '/enrich_profile/lead')).toHaveLength(0)
  })

  it('names a refused key as such', async () => {
    const { sandbox } = await durableSandbox()
    cleanups.push(() => sandbox.close())
    const client = clientOf(sandbox, 'lk_00000000000000000000000000000000')
    await client.account().catch(() => undefined)
    expect(client.reach.view().state).toBe('key_refused')
  })

  it('a job waits while the sandbox is stopped and goes on by itself when it is started again, each row paid once', async () => {
    const first = await durableSandbox()
    const port = portOf(first.sandbox)
    const { key } = await first.sandbox.control.createAccount({ credits: 10_000 })
    // One chunk in flight: when the sandbox stops, right after the first chunk is accepted, no other
    // submission can be on the wire (one cut off mid-answer is uncertain, and rightly asks the user;
    // with two in flight that happened under load).
    const settings = scaledSettings({ maxAttempts: 3, maxChunksInFlight: 1, pollTimeoutMs: 200_000 })
    const client = createServiceClient({
      baseUrl: first.sandbox.baseUrl,
      apiKey: key,
      settings,
      random: seededRandom(5),
      governor: new RateGovernor({ ceiling: settings.rateLimitPerMinute, windowMs: settings.rateWindowMs }),
    })
    const ledgerDir = mkdtempSync(join(tmpdir(), 'lk-reach-ledger-'))
    cleanups.push(() => rmSync(ledgerDir, { recursive: true, force: true }))
    const ledger = new JobLedger(ledgerDir)
    const manager = new JobManager({ ledger, client, settings, random: seededRandom(6) })
    const rows = peopleRows(600)
    const job = manager.startEnrichment({
      rows,
      options: { email: true, phone: false, catchAll: false },
      onUncertain: 'ask',
    })
    // Stopped once the first chunk is in: its polls meet a closed port; the next submission waits for it.
    await new Promise<void>((resolve) => {
      const off = manager.subscribe((event) => {
        if (
          event.type === 'progress' &&
          manager.get(job.id)!.chunks.some((chunk) => chunk.state === 'submitted')
        ) {
          off()
          resolve()
        }
      })
    })
    const created = (log: Awaited<ReturnType<Sandbox['control']['log']>>) =>
      log.requests.filter(
        (entry) => entry.method === 'POST' && entry.path === '/async' && entry.status === 201,
      )
    // The request log lives in memory: what the first run of the sandbox received is read before it stops.
    const before = created(await first.sandbox.control.log())
    await first.sandbox.close()
    // Longer than the whole retry budget of a call and the polling time-out on the service's clock.
    const downMs = 4 * settings.retryMaxDelayMs + settings.pollTimeoutMs
    await new Promise((resolve) => setTimeout(resolve, downMs))
    expect(client.reach.view().state).toBe('unreachable')
    expect(manager.get(job.id)!.state).toBe('running')

    const second = await durableSandbox(port, first.stateDir)
    cleanups.push(() => second.sandbox.close())
    const done = await manager.settled(job.id)

    expect(done.state).toBe('done')
    const results = allRows({ manager, ledger, settings }, job.id)
    expect(new Set(results.map((row) => row.key))).toEqual(new Set(rows.map((row) => row.key)))
    expect(results.every((row) => row.status === 'found' || row.status === 'not_found')).toBe(true)
    const after = created(await second.sandbox.control.log())
    expect(before.length).toBeGreaterThanOrEqual(1)
    expect(before.length + after.length).toBe(6)
    expect(client.reach.view().state).toBe('online')
  })
})
