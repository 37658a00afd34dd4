import { randomBytes } from 'node:crypto'
import { Accounts } from './accounts'
import { ByteBoundedLog } from './bounded-log'
import { Clock } from './clock'
import type { SandboxContext } from './context'
import { controlClient } from './control/client'
import type { SandboxControl } from './control/types'
import { Faults } from './faults'
import { Jobs } from './jobs/store'
import { resolveOptions, type SandboxOptions } from './options'
import { openStateStore } from './persistence'
import { API_PREFIX, createSandboxServer, listen, type Guard } from './server'
import { Webhooks } from './webhooks'
import { getWorld } from './world'
import { sandboxSample, type SandboxSample } from './sample'

export type { SandboxOptions } from './options'
export type { SandboxControl, AccountState, SandboxLog } from './control/types'
export type { FaultRule, FaultKind, FaultEndpoint } from './faults'
export type { LogEntry } from './context'
export type { ChargeEntry, NewAccount, Plan } from './accounts'
export type { WebhookAttempt } from './webhooks'
export { controlClient } from './control/client'
export type { SandboxSample, SampleSearch } from './sample'

/**
 * A sandbox inside another program (the desktop app, the web host, the CLI) is private to it: every
 * request must carry the demo key, which is a secret minted for this run, and come to our own Host
 * with no browser Origin; the control routes are off. The standalone `npm run sandbox` is a test bed
 * and keeps its public demo key and control interface.
 */
export interface Embedding {
  /**
   * Keeps the control routes (still behind the Host and Origin checks, without the secret): only
   * for the end-to-end suite, which drives the embedded sandbox's faults and balances.
   */
  control?: boolean
}

export interface Sandbox {
  /** 'http://127.0.0.1:PORT' */
  url: string
  /** url + '/api/v2' */
  baseUrl: string
  /**
   * Key of the built-in demo account (generous credits, every add-on); a restored one keeps its key.
   * Embedded, a new secret every run, and the only key the sandbox accepts.
   */
  demoKey: string
  /** Typed client of /__sandbox over real HTTP. */
  control: SandboxControl
  /** "Try a sample list": a CSV of this world's people and the lead search it goes with (sample.ts). */
  sample(): SandboxSample
  /** Stops timers, webhooks and the server, then writes the state file when there is one. */
  close(): Promise<void>
}

export const DEMO_ACCOUNT_ID = 'demo'

export async function startSandbox(options?: SandboxOptions, embedding?: Embedding): Promise<Sandbox> {
  const resolved = resolveOptions(
    embedding ? { ...options, demoKey: `lk_embedded_${randomBytes(24).toString('base64url')}` } : options,
  )
  const clock = new Clock(resolved.timeScale)
  const accounts = new Accounts(resolved.defaultCredits, resolved.logLimit, {
    freeLeadSearches: resolved.defaultFreeLeadSearches,
    freeCompanySearches: resolved.defaultFreeCompanySearches,
  })
  const ctx: SandboxContext = {
    options: resolved,
    clock,
    accounts,
    faults: new Faults(resolved.seed),
    webhooks: new Webhooks(
      clock,
      resolved.webhookRetryDelaysMs,
      resolved.webhookTimeoutMs,
      resolved.logLimit,
    ),
    jobs: new Jobs(),
    world: () =>
      getWorld(resolved.seed, {
        companies: resolved.worldCompanies,
        peoplePerCompany: resolved.worldPeoplePerCompany,
      }),
    requestLog: new ByteBoundedLog(resolved.logLimit, resolved.logByteLimit),
    refused: { requests: 0 },
  }
  const store = resolved.stateDir === null ? null : await openStateStore(ctx, resolved.stateDir)
  if (store) ctx.persist = () => store.flush()
  if (!accounts.get(DEMO_ACCOUNT_ID)) {
    accounts.create(
      // The demo account keeps unlimited searches whatever the defaults of new accounts say.
      {
        email: 'demo@sandbox.example.com',
        credits: resolved.demoCredits,
        phone: true,
        catchAll: true,
        freeLeadSearches: null,
        freeCompanySearches: null,
      },
      { id: DEMO_ACCOUNT_ID, key: resolved.demoKey },
    )
  }
  // Embedded, the key of a run before (kept in the state file) opens nothing: this run's secret replaces it.
  if (embedding) accounts.rekey(DEMO_ACCOUNT_ID, resolved.demoKey)
  const demoKeys = accounts.keysOf(DEMO_ACCOUNT_ID)
  const demoKey = demoKeys.includes(resolved.demoKey) ? resolved.demoKey : (demoKeys[0] as string)
  accounts.onCredit((accountId) => {
    for (const job of ctx.jobs.resumable(accountId)) job.resume?.()
  })

  const guard: Guard | null = embedding
    ? { secret: demoKey, hosts: new Set(), control: embedding.control === true }
    : null
  const server = createSandboxServer(ctx, guard)
  let port: number
  try {
    port = await listen(server, resolved.port)
  } catch (error) {
    clock.close()
    await store?.close()
    throw error
  }
  guard?.hosts.add(`127.0.0.1:${port}`).add(`localhost:${port}`)
  const url = `http://127.0.0.1:${port}`
  let closed = false
  let outageTimer: ReturnType<typeof setTimeout> | undefined
  ctx.outage = (ms) => {
    if (closed || !server.listening) return
    server.closeAllConnections()
    server.close()
    outageTimer = setTimeout(() => {
      if (!closed) void listen(server, port).catch(() => undefined)
    }, ms)
  }
  return {
    url,
    baseUrl: `${url}${API_PREFIX}`,
    demoKey,
    control: controlClient(url),
    sample: () => sandboxSample(ctx.world()),
    close: async () => {
      closed = true
      clearTimeout(outageTimer)
      clock.close()
      ctx.webhooks.close()
      server.closeAllConnections()
      // Mid-outage the server is not listening: closing it then is a no-op, not an error.
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await store?.close()
    },
  }
}
