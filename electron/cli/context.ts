import { join, resolve } from 'node:path'
import { createServiceClient } from '../engine/client/client'
import type { ServiceClient } from '../engine/client/client'
import { readApiKey } from '../engine/key-source'
import { isServiceAddress, serviceAddressRule } from '../domain/service-address'
import { JobLedger } from '../engine/jobs/ledger'
import { JobManager } from '../engine/jobs/manager'
import { resolveSettings, scaleDurations } from '../engine/settings'
import type { EngineSettings } from '../engine/settings'
import { CliError, ExitCode } from './exit-codes'
import { reachReporter } from './progress'

export interface GlobalOptions {
  baseUrl?: string
  keyFile?: string
  sandbox?: boolean
  stateDir?: string
  json?: boolean
  timeScale?: string
  rateLimit?: string
  chunkSize?: string
  pollTimeout?: string
}

export interface CliContext {
  client: ServiceClient
  /**
   * What jobs are tied to: the service address, or 'sandbox' for the embedded one, whose port
   * changes every run while its state (kept beside the ledger) does not.
   */
  endpointId: string
  settings: EngineSettings
  /** HTTP attempts made by this process. */
  requests: () => number
  close(): Promise<void>
}

export function positiveNumber(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const number = Number(value)
  if (!Number.isFinite(number) || number <= 0)
    throw new CliError(`${flag} needs a positive number, got "${value}".`, ExitCode.usage)
  return number
}

export function engineSettings(options: GlobalOptions): EngineSettings {
  const settings = resolveSettings({
    ...(options.rateLimit ? { rateLimitPerMinute: positiveNumber(options.rateLimit, '--rate-limit') } : {}),
    ...(options.pollTimeout
      ? { pollTimeoutMs: positiveNumber(options.pollTimeout, '--poll-timeout')! * 1000 }
      : {}),
    ...(options.chunkSize
      ? { chunkSize: Math.min(100, Math.floor(positiveNumber(options.chunkSize, '--chunk-size')!)) }
      : {}),
  })
  const scale = positiveNumber(options.timeScale, '--time-scale')
  return scale === undefined ? settings : scaleDurations(settings, scale)
}

/** The service client for this invocation: the embedded sandbox, or the base URL with the user's key. */
export async function openContext(
  options: GlobalOptions,
  env = process.env,
  /** Where jobs are kept; the embedded sandbox keeps its state there too, so a killed run resumes. */
  stateDir?: string,
): Promise<CliContext> {
  const settings = engineSettings(options)
  let requests = 0
  const onAttempt = (): void => {
    requests++
  }
  if (options.sandbox) {
    const { startSandbox } = await import('../sandbox')
    const sandbox = await startSandbox(
      {
        port: 0,
        timeScale: positiveNumber(options.timeScale, '--time-scale') ?? 1,
        ...(stateDir ? { stateDir: sandboxStateDir(stateDir) } : {}),
      },
      {},
    )
    const client = createServiceClient({
      baseUrl: sandbox.baseUrl,
      apiKey: sandbox.demoKey,
      settings,
      onAttempt,
    })
    const stopReporting = reachReporter(client.reach)
    return {
      client,
      endpointId: 'sandbox',
      settings,
      requests: () => requests,
      close: () => {
        stopReporting()
        return sandbox.close()
      },
    }
  }
  const key = readApiKey({ env, keyFile: options.keyFile })
  if (!key.ok) throw new CliError(key.error.message, ExitCode.auth)
  const baseUrl = options.baseUrl ?? env.LEADKEEPER_BASE_URL
  if (!baseUrl) {
    throw new CliError(
      'No service address: pass --base-url or set LEADKEEPER_BASE_URL (or try --sandbox).',
      ExitCode.usage,
    )
  }
  if (!isServiceAddress(baseUrl))
    throw new CliError(`--base-url ${baseUrl}: ${serviceAddressRule}`, ExitCode.usage)
  const client = createServiceClient({ baseUrl, apiKey: key.key, settings, onAttempt })
  const stopReporting = reachReporter(client.reach)
  return {
    client,
    endpointId: baseUrl,
    settings,
    requests: () => requests,
    close: async () => stopReporting(),
  }
}

/** Where the embedded sandbox keeps its accounts and requests, inside a state directory. */
export function sandboxStateDir(stateDir: string): string {
  return join(stateDir, 'sandbox')
}

/** The ledger lives in `--state-dir`, else beside the output file, else in the working directory. */
export function stateDirFor(options: GlobalOptions, output?: string): string {
  if (options.stateDir) return resolve(options.stateDir)
  return resolve(output ? resolve(output, '..') : '.', '.leadkeeper-state')
}

export function managerFor(
  context: CliContext,
  stateDir: string,
): { manager: JobManager; ledger: JobLedger } {
  const ledger = new JobLedger(stateDir)
  return { ledger, manager: new JobManager({ ledger, client: context.client, settings: context.settings }) }
}
