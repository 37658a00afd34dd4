import { Rng } from './world/random'

export type FaultEndpoint =
  | 'POST /async'
  | 'GET /async/:id'
  | 'POST /lead_finder/async'
  | 'GET /lead_finder/async/:id'
  | 'POST /company_finder/async'
  | 'GET /company_finder/async/:id'
  | 'POST /enrich_profile/company'
  | 'POST /enrich_profile/lead'
  | 'GET /account'
  | '*'

export type FaultKind =
  'status429' | 'status500' | 'status500AfterCreate' | 'dropAfterCreate' | 'drop' | 'slow' | 'stuck'

export interface FaultRule {
  endpoint: FaultEndpoint | string
  kind: FaultKind
  /** Apply to the next N matching requests (default: every matching request). */
  times?: number
  /** Let the first N matching requests through first. */
  skip?: number
  /** 0..1, drawn from a seeded generator. */
  probability?: number
  /** For 'slow': a raw delay, not scaled by the time scale. */
  delayMs?: number
}

export const FAULT_KINDS: readonly FaultKind[] = [
  'status429',
  'status500',
  'status500AfterCreate',
  'dropAfterCreate',
  'drop',
  'slow',
  'stuck',
]

interface ActiveRule {
  rule: FaultRule
  seen: number
  fired: number
}

/** The faults that fire for one request, at most one of each kind. */
export type FiredFaults = Partial<Record<FaultKind, FaultRule>>

export class Faults {
  private rules: ActiveRule[] = []
  private rng: Rng

  constructor(private readonly seed: number) {
    this.rng = new Rng(seed)
  }

  set(rules: FaultRule[]): void {
    for (const rule of rules) {
      if (!FAULT_KINDS.includes(rule.kind)) throw new Error(`unknown fault kind ${String(rule.kind)}`)
    }
    this.rules = rules.map((rule) => ({ rule, seen: 0, fired: 0 }))
    this.rng = new Rng(this.seed)
  }

  clear(): void {
    this.rules = []
  }

  list(): FaultRule[] {
    return this.rules.map((active) => active.rule)
  }

  /**
   * Evaluates every rule against one request; each matching rule counts the request once. A 'stuck'
   * rule only counts requests that create work, so polling does not use up its `times`.
   */
  evaluate(endpoint: string, createsWork: boolean): FiredFaults {
    const fired: FiredFaults = {}
    for (const active of this.rules) {
      const { rule } = active
      if (rule.endpoint !== '*' && rule.endpoint !== endpoint) continue
      if (rule.kind === 'stuck' && !createsWork) continue
      active.seen++
      if (active.seen <= (rule.skip ?? 0)) continue
      if (rule.times !== undefined && active.fired >= rule.times) continue
      if (rule.probability !== undefined && this.rng.next() >= rule.probability) continue
      if (fired[rule.kind]) continue
      active.fired++
      fired[rule.kind] = rule
    }
    return fired
  }
}
