import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServiceClient } from '../../electron/engine/client/client'
import { seededRandom } from '../../electron/engine/client/clock'
import { RateGovernor } from '../../electron/engine/client/governor'
import { JobLedger } from '../../electron/engine/jobs/ledger'
import { JobManager } from '../../electron/engine/jobs/manager'
import type { EnrichmentRow } from '../../electron/engine/jobs/normalize'
import type { SettingsOverrides } from '../../electron/engine/settings'
import { resolveSettings, scaleDurations } from '../../electron/engine/settings'
import { startSandbox } from '../../electron/sandbox'
import type { FaultRule } from '../../electron/sandbox'
import type { Figure } from './figures'
import { figure } from './figures'
import type { BenchContext } from './context'
import { startSandboxProcess } from './sandbox-process'

/** Service-side durations a fiftieth of real: a 60 s rate window lasts 1.2 s. */
export const enrichmentTimeScale = 0.02
export const rateLimitPerMinute = 100
/** The sandbox's default: 300 ms per lead, so a chunk of 100 leads takes 30 s of service time. */
export const leadWorkMs = 300
const chunkSize = 100

/** Distinct people at a spread of domains; the key is the row's place. */
export function benchRows(count: number): EnrichmentRow[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `r${i}`,
    first_name: `First${i % 997}`,
    last_name: `Last${Math.floor(i / 997)}x${i % 13}`,
    company_domain: `company${i % 211}.example`,
  }))
}

/**
 * The best any client could do: every request paced at the limit, one POST and one GET per chunk,
 * and the last chunk's GET no earlier than its processing allows.
 */
export function idealWallMs(chunks: number, scale: number): number {
  const slotMs = (60_000 * scale) / rateLimitPerMinute
  const processingMs = chunkSize * leadWorkMs * scale
  return Math.max(2 * chunks * slotMs, chunks * slotMs + processingMs)
}

interface Variant {
  name: string
  faults: FaultRule[]
  settings: SettingsOverrides
  note?: string
  /** Folder of the job ledger; a tmpfs one shows what the synchronous fsyncs cost. */
  ledgerParent?: string
  /** Another time scale than the bench's: how much of the gap is fixed cost per request. */
  timeScale?: number
  /** Target of wall / ideal when it is not the default 1.10 (faults cost time whatever the client does). */
  wallTarget?: number
  /** The sandbox in the bench's own process, sharing its event loop (how the bench ran before). */
  sandboxInProcess?: boolean
}

const faultRules: FaultRule[] = [
  { endpoint: '*', kind: 'status429', skip: 40, times: 25 },
  { endpoint: '*', kind: 'status429', skip: 250, times: 25 },
  { endpoint: 'POST /async', kind: 'status500', probability: 0.03 },
  { endpoint: 'GET /async/:id', kind: 'status500', probability: 0.05 },
]

export interface EnrichmentRun {
  wallMs: number
  /** From the start of the job to the first request the service received: planning and the ledger. */
  firstRequestMs: number
  requests: number
  posts: number
  gets: number
  status429: number
  status500: number
  /** Answers a fault rule gave instead of the service: requests the client could not have saved. */
  injected: number
  /** 429s the service's own rate limit gave: the ones the client caused. */
  caused429: number
  rowsLost: number
  /**
   * Rows the service accepted in more than one enrichment request (POST /async answered 201): rows
   * it may charge twice. Read from the bodies in the sandbox's request log.
   */
  rowsSentTwice: number
  /** Distinct rows the service accepted at least once: every row, when the bodies were read. */
  rowsAccepted: number
  state: string
}

/** Leads the service accepted, each by its fields: how many, and how many in more than one request. */
function rowsAccepted(requests: { method: string; path: string; status: number | null; body?: unknown }[]): {
  rowsAccepted: number
  rowsSentTwice: number
} {
  const times = new Map<string, number>()
  for (const entry of requests) {
    if (entry.method !== 'POST' || entry.path !== '/async' || entry.status !== 201) continue
    const leads = (entry.body as { data?: unknown } | undefined)?.data
    if (!Array.isArray(leads)) continue
    for (const lead of leads) {
      const id = JSON.stringify(lead)
      times.set(id, (times.get(id) ?? 0) + 1)
    }
  }
  return {
    rowsAccepted: times.size,
    rowsSentTwice: [...times.values()].filter((count) => count > 1).length,
  }
}

/** One job of `rows` rows on a fresh sandbox and a fresh governor; the sandbox log is the truth. */
export async function runEnrichment(
  count: number,
  faults: FaultRule[],
  overrides: SettingsOverrides,
  ledgerParent = tmpdir(),
  timeScale = enrichmentTimeScale,
  sandboxInProcess = false,
): Promise<EnrichmentRun> {
  const sandbox = sandboxInProcess
    ? await startSandbox({ port: 0, timeScale, seed: 3, rateLimitPerMinute, leadWorkMs, logLimit: 100_000 })
    : await startSandboxProcess({
        'time-scale': timeScale,
        seed: 3,
        'rate-limit': rateLimitPerMinute,
        'lead-work-ms': leadWorkMs,
        'log-limit': 100_000,
      })
  const stateDir = mkdtempSync(join(ledgerParent, 'lk-bench-enrich-'))
  try {
    const { key } = await sandbox.control.createAccount({ credits: 10 * count })
    await sandbox.control.setFaults(faults)
    const settings = scaleDurations(
      resolveSettings({ requestTimeoutMs: 10_000, rateLimitPerMinute, chunkSize, ...overrides }),
      timeScale,
    )
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      apiKey: key,
      settings,
      random: seededRandom(11),
      governor: new RateGovernor({
        ceiling: settings.rateLimitPerMinute,
        floor: settings.rateLimitFloorPerMinute,
        windowMs: settings.rateWindowMs,
      }),
    })
    const ledger = new JobLedger(stateDir)
    const manager = new JobManager({ ledger, client, settings, random: seededRandom(12) })
    const rows = benchRows(count)
    // The sandbox builds its synthetic world on first use (seconds under load): not the engine's time.
    await client.companyProfile({ company_domain: 'warm-up.invalid' }).catch(() => undefined)
    const warmUp = (await sandbox.control.log()).requests.length
    const started = performance.now()
    const startedAt = Date.now()
    const job = manager.startEnrichment({
      rows,
      options: { email: true, phone: false, catchAll: false },
      onUncertain: 'resubmit',
    })
    let done = await manager.settled(job.id)
    // A chunk unlucky twice stays uncertain after its automatic resubmission, as a user would see it.
    for (let decisions = 0; done.state === 'needs_attention' && decisions < 5; decisions++) {
      await manager.resolveUncertain(job.id, 'resubmit')
      done = await manager.settled(job.id)
    }
    const wallMs = performance.now() - started
    const delivered = new Set<string>()
    for (const batch of ledger.results(job.id, 0).batches) {
      for (const row of batch.rows)
        if (row.status === 'found' || row.status === 'not_found') delivered.add(row.key)
    }
    const requests = (await sandbox.control.log()).requests
      .slice(warmUp)
      .filter((entry) => entry.path !== '/account')
    return {
      wallMs,
      firstRequestMs: requests.length ? Date.parse(requests[0]!.at) - startedAt : 0,
      requests: requests.length,
      posts: requests.filter((entry) => entry.method === 'POST').length,
      gets: requests.filter((entry) => entry.method === 'GET').length,
      status429: requests.filter((entry) => entry.status === 429).length,
      status500: requests.filter((entry) => entry.status === 500).length,
      injected: requests.filter((entry) => entry.fault !== undefined).length,
      caused429: requests.filter((entry) => entry.status === 429 && entry.fault === undefined).length,
      rowsLost: rows.filter((row) => !delivered.has(row.key)).length,
      ...rowsAccepted(requests),
      state: done.state,
    }
  } finally {
    await sandbox.close()
    rmSync(stateDir, { recursive: true, force: true })
  }
}

export async function enrichmentBench(ctx: BenchContext): Promise<Figure[]> {
  const count = ctx.quick ? 2_000 : 10_000
  const chunks = Math.ceil(count / chunkSize)
  const slotMs = (60_000 * enrichmentTimeScale) / rateLimitPerMinute
  const processingMs = chunkSize * leadWorkMs * enrichmentTimeScale
  // The window of the round before: two rate slots a chunk (the middle of a job) and a quarter more.
  const steadyInFlight = Math.ceil((1.25 * processingMs) / (2 * slotMs)) + 2
  const variants: Variant[] = [
    { name: 'defaults', faults: [], settings: {} },
    {
      name: 'defaults + 429 bursts & 500s',
      faults: faultRules,
      settings: {},
      note: 'two bursts of 25 injected 429s, 3 % POST and 5 % GET 500s',
      wallTarget: 2,
    },
    {
      name: 'maxChunksInFlight 4',
      faults: [],
      settings: { maxChunksInFlight: 4 },
      note: 'the window before it was sized from the rate limit, for comparison',
    },
    {
      name: `maxChunksInFlight ${steadyInFlight}`,
      faults: [],
      settings: { maxChunksInFlight: steadyInFlight },
      note: 'the window of the round before, sized for the middle of a job (two slots a chunk); the default is now one slot a chunk, 57',
    },
    {
      name: 'defaults, sandbox in the same process',
      faults: [],
      settings: {},
      sandboxInProcess: true,
      note: 'the sandbox sharing the event loop of the engine measured, as this bench ran before; every other variant runs it as its own process, as the real service is',
    },
    ...(existsSync('/dev/shm')
      ? [
          {
            name: 'defaults, ledger on tmpfs',
            faults: [],
            settings: {},
            ledgerParent: '/dev/shm',
            note: 'the same with the ledger in memory: what its fsyncs still cost',
          },
        ]
      : []),
    {
      name: 'defaults at time scale 0.1',
      faults: [],
      settings: {},
      timeScale: 0.1,
      note: 'five times slower service time: what is left of the gap is paced, not fixed cost per request',
    },
  ]
  const figures: Figure[] = []
  const bench = `enrich ${count.toLocaleString('en-US')}`
  // One job first, not measured, so that the first variant does not pay alone for compiling the
  // engine's code (about 100 ms once per process, a tenth of the ideal at 2,000 rows at this scale).
  ctx.log('enrichment: warm-up job of 2,000 rows')
  await runEnrichment(2_000, [], {})
  for (const variant of variants) {
    ctx.log(`enrichment: ${variant.name}`)
    const scale = variant.timeScale ?? enrichmentTimeScale
    const run = await runEnrichment(
      count,
      variant.faults,
      variant.settings,
      variant.ledgerParent,
      scale,
      variant.sandboxInProcess,
    )
    const ideal = idealWallMs(chunks, scale)
    const label = (name: string) => `${variant.name}: ${name}`
    const scaleNote = `time scale ${scale}, ${rateLimitPerMinute}/min, ${leadWorkMs} ms/lead`
    figures.push(
      figure(
        bench,
        label('wall / ideal'),
        run.wallMs / ideal,
        '×',
        { max: variant.wallTarget ?? 1.1 },
        `${(run.wallMs / 1000).toFixed(2)} s vs ideal ${(ideal / 1000).toFixed(1)} s (${scaleNote}), the first request ` +
          `after ${Math.round(run.firstRequestMs)} ms; job ${run.state}${variant.note ? '; ' + variant.note : ''}`,
      ),
      // Every answer a fault injected costs one request more whatever the client does: they are set
      // aside, and the figure is what the client itself added.
      figure(
        bench,
        label('requests / minimum'),
        (run.requests - run.injected) / (2 * chunks),
        '×',
        { max: 1.25 },
        `${run.requests} sent (${run.posts} POST, ${run.gets} GET) vs ${2 * chunks}` +
          (run.injected > 0 ? `, ${run.injected} of them answered by an injected fault` : ''),
      ),
      figure(
        bench,
        label('429s caused'),
        (100 * run.caused429) / Math.max(1, run.requests),
        '%',
        { max: 1 },
        `${run.caused429} × 429 from the rate limit; injected: ${run.status429 - run.caused429} × 429, ` +
          `${run.status500} × 500`,
      ),
      figure(bench, label('rows lost'), run.rowsLost, 'rows', { max: 0 }),
      figure(
        bench,
        label('rows charged twice'),
        run.rowsSentTwice,
        'rows',
        { max: 0 },
        `rows the service accepted in two enrichment requests or more, of ${run.rowsAccepted.toLocaleString('en-US')} it accepted; ${run.posts} POSTs for ${chunks} chunks`,
      ),
    )
  }
  return figures
}
