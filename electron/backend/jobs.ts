import { createHash, randomUUID } from 'node:crypto'
import { join } from 'node:path'
import {
  JobLedger,
  JobManager,
  type JobEvent,
  type JobRecord,
  type ServiceClient,
  type SetAsideJob,
} from '../engine'
import type { EnrichmentRowInput, Handlers, JobView } from '../shared/contract'
import { fail, ok, type Result } from '../shared/result'
import type { Endpoint } from './connection'
import type { BackendHost } from './host'
import type { ServiceAccess } from './service'

type JobHandlers = Pick<
  Handlers,
  | 'jobs/list'
  | 'jobs/get'
  | 'jobs/stageRows'
  | 'jobs/estimate'
  | 'jobs/startEnrichment'
  | 'jobs/startLeadSearch'
  | 'jobs/startCompanySearch'
  | 'jobs/results'
  | 'jobs/unacknowledged'
  | 'jobs/ack'
  | 'jobs/cancel'
  | 'jobs/resume'
  | 'jobs/setCap'
  | 'jobs/uncertainEvidence'
  | 'jobs/resolveUncertain'
  | 'jobs/takeSetAside'
>

/** Staged rows wait for their job at most this long; a renderer that went away leaves nothing behind. */
const stagingTtlMs = 60 * 60 * 1000
/** Bound on rows held in memory across all stagings, so a runaway renderer cannot exhaust the process. */
const stagingRowLimit = 3_000_000

export function toJobView(record: JobRecord): JobView {
  const { chunks, ...rest } = record
  const chunkStates: JobView['chunkStates'] = {}
  for (const chunk of chunks) chunkStates[chunk.state] = (chunkStates[chunk.state] ?? 0) + 1
  return { ...rest, chunkStates }
}

/**
 * Result batches a drain page holds by default (about 5,000 rows of an enrichment): a window that
 * comes back after a long time away takes what it missed a page at a time, not in one message.
 */
const unacknowledgedPage = 50

/**
 * Adapts the engine's job manager to the contract. One manager per ledger (the sandbox, or one
 * service address), so two managers never drive the same jobs. The manager talks through a client
 * that always follows the current key, so a replaced key takes effect for running jobs too.
 */
export class JobsService {
  private readonly ledgers = new Map<string, { manager: JobManager; client: { current: ServiceClient } }>()
  private readonly staging = new Map<string, { rows: EnrichmentRowInput[]; touchedAt: number }>()
  /**
   * Records set aside and not yet handed to a window. Kept, not only emitted: the ledger is first read
   * at start, before any window listens (Electron's is not open yet; the web host's browser connects later).
   */
  private readonly setAside: SetAsideJob[] = []

  constructor(
    private readonly host: BackendHost,
    private readonly service: ServiceAccess,
    private readonly stateDir: string,
  ) {}

  /** The manager for where calls go now; created (and its unfinished jobs resumed) on first use. */
  async manager(): Promise<Result<JobManager>> {
    const access = await this.service.client()
    if (!access.ok) return access
    const ledgerId = ledgerIdOf(access.data.endpoint)
    const existing = this.ledgers.get(ledgerId)
    if (existing) {
      existing.client.current = access.data.client
      return ok(existing.manager)
    }
    const holder = { current: access.data.client }
    const manager = new JobManager({
      ledger: new JobLedger(join(this.stateDir, ledgerId), (message, aside) =>
        this.onSetAside(message, aside),
      ),
      client: followingClient(holder),
    })
    manager.subscribe((event) => this.forward(event))
    this.ledgers.set(ledgerId, { manager, client: holder })
    manager.resumeAll()
    return ok(manager)
  }

  async close(): Promise<void> {
    await Promise.all([...this.ledgers.values()].map(({ manager }) => manager.idle()))
  }

  handlers(): JobHandlers {
    const withManager = async <T>(work: (manager: JobManager) => T | Promise<T>): Promise<Result<T>> => {
      const manager = await this.manager()
      if (!manager.ok) return manager
      try {
        return ok(await work(manager.data))
      } catch (error) {
        if (error instanceof Error && error.message.startsWith('Unknown job'))
          return fail('not_found', error.message)
        throw error
      }
    }
    const known = (manager: JobManager, jobId: string): JobRecord => {
      const record = manager.get(jobId)
      if (!record) throw new Error(`Unknown job: ${jobId}`)
      return record
    }
    return {
      'jobs/list': () => withManager((manager) => manager.list().map(toJobView)),
      'jobs/get': ({ jobId }) => withManager((manager) => toJobView(known(manager, jobId))),
      'jobs/stageRows': async ({ stagingId, rows }) => this.stage(stagingId, rows),
      'jobs/estimate': async ({ stagingId, email, phone, catchAll }) => {
        const staged = this.staging.get(stagingId)
        if (!staged) return fail('not_found', 'Those rows are no longer staged; start the run again.')
        return withManager((manager) => manager.estimateEnrichment(staged.rows, { email, phone, catchAll }))
      },
      'jobs/startEnrichment': async ({ jobId, stagingId, label, options, maxCredits, onUncertain }) => {
        const staged = this.staging.get(stagingId)
        const result = await withManager((manager) => {
          if (!staged && !manager.get(jobId)) throw new Error(`Unknown job: ${jobId}`)
          return toJobView(
            manager.startEnrichment({
              id: jobId,
              label,
              rows: staged?.rows ?? [],
              options,
              maxCredits,
              onUncertain: onUncertain ?? 'ask',
            }),
          )
        })
        if (result.ok) this.staging.delete(stagingId)
        return result
      },
      'jobs/startLeadSearch': ({ jobId, label, search, maxCredits }) =>
        withManager((manager) =>
          toJobView(manager.startLeadSearch({ id: jobId, label, search, maxCredits, onUncertain: 'ask' })),
        ),
      'jobs/startCompanySearch': ({ jobId, label, search, maxCredits }) =>
        withManager((manager) =>
          toJobView(manager.startCompanySearch({ id: jobId, label, search, maxCredits, onUncertain: 'ask' })),
        ),
      'jobs/results': ({ jobId, after, limit }) =>
        withManager((manager) => {
          known(manager, jobId)
          return manager.results(jobId, after, limit)
        }),
      'jobs/unacknowledged': ({ jobId, limit }) =>
        withManager((manager) => {
          known(manager, jobId)
          return manager.unacknowledged(jobId, limit ?? unacknowledgedPage)
        }),
      'jobs/ack': ({ jobId, cursor }) =>
        withManager((manager) => {
          known(manager, jobId)
          manager.ack(jobId, cursor)
          return null
        }),
      'jobs/cancel': ({ jobId }) => withManager(async (manager) => toJobView(await manager.cancel(jobId))),
      'jobs/resume': ({ jobId }) => withManager((manager) => toJobView(manager.resume(jobId))),
      'jobs/setCap': ({ jobId, maxCredits }) =>
        withManager((manager) => toJobView(manager.setCap(jobId, maxCredits))),
      'jobs/uncertainEvidence': ({ jobId }) => withManager((manager) => manager.uncertainEvidence(jobId)),
      'jobs/resolveUncertain': ({ jobId, action }) =>
        withManager(async (manager) => toJobView(await manager.resolveUncertain(jobId, action))),
      'jobs/takeSetAside': async () => ok(this.setAside.splice(0)),
    }
  }

  private stage(
    stagingId: string | undefined,
    rows: EnrichmentRowInput[],
  ): Result<{ stagingId: string; staged: number }> {
    const now = Date.now()
    for (const [id, staged] of this.staging)
      if (now - staged.touchedAt > stagingTtlMs) this.staging.delete(id)
    const held = [...this.staging.values()].reduce((sum, staged) => sum + staged.rows.length, 0)
    if (held + rows.length > stagingRowLimit) {
      return fail(
        'invalid_input',
        `At most ${stagingRowLimit.toLocaleString('en')} rows can be prepared at once.`,
      )
    }
    if (stagingId && !this.staging.has(stagingId)) {
      return fail('not_found', 'Those rows are no longer staged; start the run again.')
    }
    const id = stagingId ?? randomUUID()
    const staged = this.staging.get(id) ?? { rows: [], touchedAt: now }
    for (const row of rows) staged.rows.push(row)
    staged.touchedAt = now
    this.staging.set(id, staged)
    return ok({ stagingId: id, staged: staged.rows.length })
  }

  private onSetAside(message: string, aside: SetAsideJob): void {
    // The host's log keeps the words too, as the command line's stderr does.
    console.error(`[backend] ${message}`)
    this.setAside.push(aside)
    this.host.emit('jobs/setAside', { jobId: aside.jobId })
  }

  private forward(event: JobEvent): void {
    if (event.type === 'progress') {
      const { type: _type, ...progress } = event
      this.host.emit('jobs/progress', progress)
    } else if (event.type === 'state') {
      this.host.emit('jobs/state', { jobId: event.jobId, state: event.state, error: event.error })
    } else {
      this.host.emit('jobs/results', { jobId: event.jobId, seq: event.seq, rows: event.rows })
    }
  }
}

/** Jobs of the sandbox and of each service address live apart: a request id means nothing elsewhere. */
function ledgerIdOf(endpoint: Endpoint): string {
  if (endpoint.mode === 'sandbox') return 'sandbox'
  return `service-${createHash('sha256').update(endpoint.baseUrl).digest('hex').slice(0, 16)}`
}

function followingClient(holder: { current: ServiceClient }): ServiceClient {
  return new Proxy({} as ServiceClient, {
    get: (_target, property) => {
      const value = Reflect.get(holder.current, property) as unknown
      return typeof value === 'function' ? value.bind(holder.current) : value
    },
  })
}
