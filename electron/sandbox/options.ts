export interface SandboxOptions {
  /** 0 = any free port (default). */
  port?: number
  /** Multiplies every delay: processing, webhook schedule, rate windows, lead profile latency. Default 1. */
  timeScale?: number
  /** Seed of the synthetic world and of every synthetic answer. Default 1. */
  seed?: number
  /** Requests per minute per key, all endpoints but `GET /account`. Default 100. */
  rateLimitPerMinute?: number
  /** Requests allowed per IP with an unknown, deactivated or missing key. Default 5. */
  invalidKeyLimit?: number
  /** Window of `invalidKeyLimit`, before scaling. Default 300000 (5 minutes). */
  invalidKeyWindowMs?: number
  /** Key of the built-in demo account. Default 'lk_sandbox_demo_key'. */
  demoKey?: string
  /** Starting balance of the demo account. Default 10000. */
  demoCredits?: number
  /** Starting balance of accounts created through the control interface. Default 1000. */
  defaultCredits?: number
  /** Price of an email found. Default 1. */
  creditsPerEmail?: number
  /** Price of a phone number found. Default 10. */
  creditsPerPhone?: number
  /** Price of a lead profile found. Default 0.1. */
  creditsPerLeadProfile?: number
  /** Price of each company returned by a company search page. Default 1. */
  creditsPerCompany?: number
  /** Time an enrichment or lead search spends on each lead, before scaling. Default 300. */
  leadWorkMs?: number
  /** Time a lead or company search stays `not_started`, before scaling. Default 1000. */
  searchQueueMs?: number
  /** Time a lead or company search stays `processing` before its results exist, before scaling. Default 2000. */
  searchWorkMs?: number
  /** Latency of a lead profile lookup, before scaling. Default 2000. */
  leadProfileMs?: number
  /** Delays between webhook attempts, before scaling. Default [10000, 120000, 180000, 240000]. */
  webhookRetryDelaysMs?: number[]
  /** Time a webhook receiver has to answer; raw, not scaled. Default 10000. */
  webhookTimeoutMs?: number
  /** Smallest lead search `limit`. Default 1. */
  leadSearchMinLimit?: number
  /** Largest lead search `limit`. Default 100. */
  leadSearchMaxLimit?: number
  /** Lead search `limit` when absent. Default 25. */
  leadSearchDefaultLimit?: number
  /** Largest lead search `offset`. Default 10000. */
  leadSearchMaxOffset?: number
  /** Largest lead search `max_leads`. Default 1000 (smallest is 1). */
  leadSearchMaxLeads?: number
  /** `enrich_email_address` of `POST /async` when the body leaves it out (not shown by the interface). Default true. */
  defaultEnrichEmail?: boolean
  /** `enrich_phone_number` of `POST /async` when the body leaves it out. Default false. */
  defaultEnrichPhone?: boolean
  /** `verify_catch_all` of `POST /async` when the body leaves it out. Default false. */
  defaultVerifyCatchAll?: boolean
  /** `push_contact_individually` of `POST /async` when the body leaves it out. Default false. */
  defaultPushContactIndividually?: boolean
  /** Free lead searches of an account created through the control interface; null = unlimited. Default null. */
  defaultFreeLeadSearches?: number | null
  /** Free company searches of an account created through the control interface; null = unlimited. Default null. */
  defaultFreeCompanySearches?: number | null
  /** Companies in the synthetic world. Default 3000. */
  worldCompanies?: number
  /** Average people per world company. Default 10. */
  worldPeoplePerCompany?: number
  /**
   * Share of people (0 to 1) whose later answers to an account differ from their first: another
   * company, title or email (`movers.ts`). Default 0.05.
   */
  moverShare?: number
  /** Entries kept in each control log (requests, charges, webhook attempts); the oldest go first. Default 10000. */
  logLimit?: number
  /** Bytes the request log may hold, bodies included; the oldest entries go first. Default 32 MiB. */
  logByteLimit?: number
  /**
   * Folder of `sandbox-state.json`: accounts, keys, balances and every request survive a restart.
   * Default: none, everything stays in memory.
   */
  stateDir?: string
}

export type ResolvedOptions = Required<Omit<SandboxOptions, 'stateDir'>> & { stateDir: string | null }

export const DEFAULT_OPTIONS: ResolvedOptions = {
  port: 0,
  timeScale: 1,
  seed: 1,
  rateLimitPerMinute: 100,
  invalidKeyLimit: 5,
  invalidKeyWindowMs: 300_000,
  demoKey: 'lk_sandbox_demo_key',
  demoCredits: 10_000,
  defaultCredits: 1_000,
  creditsPerEmail: 1,
  creditsPerPhone: 10,
  creditsPerLeadProfile: 0.1,
  creditsPerCompany: 1,
  leadWorkMs: 300,
  searchQueueMs: 1000,
  searchWorkMs: 2000,
  leadProfileMs: 2000,
  webhookRetryDelaysMs: [10_000, 120_000, 180_000, 240_000],
  webhookTimeoutMs: 10_000,
  leadSearchMinLimit: 1,
  leadSearchMaxLimit: 100,
  leadSearchDefaultLimit: 25,
  leadSearchMaxOffset: 10_000,
  leadSearchMaxLeads: 1000,
  defaultEnrichEmail: true,
  defaultEnrichPhone: false,
  defaultVerifyCatchAll: false,
  defaultPushContactIndividually: false,
  defaultFreeLeadSearches: null,
  defaultFreeCompanySearches: null,
  worldCompanies: 3000,
  worldPeoplePerCompany: 10,
  moverShare: 0.05,
  logLimit: 10_000,
  logByteLimit: 32 * 1024 * 1024,
  stateDir: null,
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedOptions {
  const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
  const resolved = { ...DEFAULT_OPTIONS, ...defined } as ResolvedOptions
  if (!(resolved.timeScale > 0)) throw new Error('timeScale must be a positive number')
  if (!(resolved.moverShare >= 0 && resolved.moverShare <= 1))
    throw new Error('moverShare must be from 0 to 1')
  return resolved
}
