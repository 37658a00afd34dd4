import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSandbox } from '../../../electron/sandbox'
import type { Sandbox, SandboxOptions } from '../../../electron/sandbox'
import { createServiceClient } from '../../../electron/engine/client/client'
import { seededRandom } from '../../../electron/engine/client/clock'
import { RateGovernor } from '../../../electron/engine/client/governor'
import { JobLedger } from '../../../electron/engine/jobs/ledger'
import { JobManager } from '../../../electron/engine/jobs/manager'
import type { EnrichmentRow } from '../../../electron/engine/jobs/normalize'
import type { JobRecord, ResultRow } from '../../../electron/domain/jobs'
import type { EngineSettings, SettingsOverrides } from '../../../electron/engine/settings'
import { resolveSettings, scaleDurations } from '../../../electron/engine/settings'

export const timeScale = 0.01

/** Engine settings on the sandbox's clock: every service-side duration shrunk by the same factor. */
export function scaledSettings(overrides: SettingsOverrides = {}): EngineSettings {
  // The polling time-out is ten times the default: a loaded machine slows the engine, not the sandbox's clock.
  return scaleDurations(
    resolveSettings({ requestTimeoutMs: 10_000, pollTimeoutMs: 3_000_000, ...overrides }),
    timeScale,
  )
}

export interface Bed {
  sandbox: Sandbox
  stateDir: string
  close(): Promise<void>
}

export async function startBed(options: SandboxOptions = {}): Promise<Bed> {
  const sandbox = await startSandbox({ port: 0, timeScale, seed: 7, ...options })
  const stateDir = mkdtempSync(join(tmpdir(), 'lk-engine-'))
  return {
    sandbox,
    stateDir,
    close: async () => {
      await sandbox.close()
      rmSync(stateDir, { recursive: true, force: true })
    },
  }
}

export interface Engine {
  manager: JobManager
  ledger: JobLedger
  settings: EngineSettings
}

/** A fresh client, governor and manager over the bed; a new one after a "restart" shares only the disk. */
export function engineFor(bed: Bed, apiKey: string, overrides: SettingsOverrides = {}, seed = 1): Engine {
  const settings = scaledSettings(overrides)
  const client = createServiceClient({
    baseUrl: bed.sandbox.baseUrl,
    apiKey,
    settings,
    random: seededRandom(seed),
    governor: new RateGovernor({
      ceiling: settings.rateLimitPerMinute,
      floor: settings.rateLimitFloorPerMinute,
      windowMs: settings.rateWindowMs,
    }),
  })
  const ledger = new JobLedger(bed.stateDir)
  return {
    manager: new JobManager({ ledger, client, settings, random: seededRandom(seed + 1) }),
    ledger,
    settings,
  }
}

const firstNames = [
  'Ada',
  'Alan',
  'Grace',
  'Linus',
  'Barbara',
  'Edsger',
  'Frances',
  'Donald',
  'Radia',
  'Ken',
  'Margaret',
  'Dennis',
]
const lastNames = [
  'Lovelace',
  'Turing',
  'Hopper',
  'Torvalds',
  'Liskov',
  'Dijkstra',
  'Allen',
  'Knuth',
  'Perlman',
  'Thompson',
]

/** Distinct people at a spread of domains, with a stable key per row. */
export function peopleRows(count: number, prefix = 'row'): EnrichmentRow[] {
  return Array.from({ length: count }, (_, i) => ({
    key: `${prefix}-${i}`,
    first_name: firstNames[i % firstNames.length],
    last_name: `${lastNames[Math.floor(i / firstNames.length) % lastNames.length]}${Math.floor(i / 120) || ''}`,
    company_domain: `company${i % 37}.com`,
  }))
}

export function allRows(engine: Engine, jobId: string): ResultRow[] {
  return engine.ledger.results(jobId, 0).batches.flatMap((batch) => batch.rows)
}

export async function settle(engine: Engine, job: JobRecord): Promise<JobRecord> {
  return engine.manager.settled(job.id)
}
