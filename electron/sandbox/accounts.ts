import { randomBytes } from 'node:crypto'
import { appendBounded } from './bounded-log'

export interface Plan {
  phone: boolean
  catchAll: boolean
  /** Remaining free lead searches; null = unlimited. */
  freeLeadSearches: number | null
  /** Remaining free company searches; null = unlimited. */
  freeCompanySearches: number | null
}

export interface Account extends Plan {
  id: string
  email: string
  /** Balance in tenths of a credit, so 0.1-credit charges stay exact. */
  tenths: number
}

export interface NewAccount extends Partial<Plan> {
  email?: string
  credits?: number
}

export interface ChargeEntry {
  at: string
  accountId: string
  requestId?: string
  credits: number
  reason: string
}

/** Everything an `Accounts` holds apart from its charge log: what a restart must keep. */
export interface AccountsState {
  nextId: number
  accounts: Account[]
  keys: { key: string; accountId: string; active: boolean }[]
  /** The movers each account was answered about (`movers.ts`); absent in states saved before. */
  movers?: { accountId: string; people: number[] }[]
}

export const toTenths = (credits: number): number => Math.round(credits * 10)
export const toCredits = (tenths: number): number => tenths / 10
/** Integer balance fields round down, so they never promise a credit the account does not have. */
export const wholeCredits = (tenths: number): number => Math.floor(tenths / 10)
export const decimalCredits = (tenths: number): string => (tenths / 10).toFixed(1)

export class Accounts {
  private readonly accounts = new Map<string, Account>()
  private readonly keys = new Map<string, { accountId: string; active: boolean }>()
  /** Only movers are remembered: everyone else is answered the same whatever came before. */
  private readonly movers = new Map<string, Set<number>>()
  private readonly creditListeners: ((accountId: string) => void)[] = []
  private readonly changeListeners: (() => void)[] = []
  readonly charges: ChargeEntry[] = []
  private nextId = 1

  constructor(
    private readonly defaultCredits: number,
    private readonly logLimit: number,
    /** Free searches of a new account whose input leaves them out; null (unlimited) when not given. */
    private readonly defaultQuotas: Partial<Pick<Plan, 'freeLeadSearches' | 'freeCompanySearches'>> = {},
  ) {}

  create(
    input: NewAccount,
    fixed?: { id: string; key: string },
  ): { accountId: string; email: string; key: string } {
    const id = fixed?.id ?? `acct_${this.nextId++}`
    const account: Account = {
      id,
      email: input.email ?? `${id}@sandbox.example.com`,
      tenths: Math.max(0, toTenths(input.credits ?? this.defaultCredits)),
      phone: input.phone ?? true,
      catchAll: input.catchAll ?? true,
      // An explicit null (unlimited) in the input wins over the default, so `??` would be wrong here.
      freeLeadSearches:
        input.freeLeadSearches !== undefined
          ? input.freeLeadSearches
          : (this.defaultQuotas.freeLeadSearches ?? null),
      freeCompanySearches:
        input.freeCompanySearches !== undefined
          ? input.freeCompanySearches
          : (this.defaultQuotas.freeCompanySearches ?? null),
    }
    this.accounts.set(id, account)
    const key = fixed?.key ?? this.addKey(id)
    if (fixed) this.keys.set(fixed.key, { accountId: id, active: true })
    this.changed()
    return { accountId: id, email: account.email, key }
  }

  addKey(accountId: string): string {
    this.require(accountId)
    const key = `lk_${randomBytes(16).toString('hex')}`
    this.keys.set(key, { accountId, active: true })
    this.changed()
    return key
  }

  /** Makes `key` the account's only key: every other key of it is forgotten. */
  rekey(accountId: string, key: string): void {
    this.require(accountId)
    for (const [known, entry] of this.keys) if (entry.accountId === accountId) this.keys.delete(known)
    this.keys.set(key, { accountId, active: true })
    this.changed()
  }

  deactivateKey(key: string): boolean {
    const entry = this.keys.get(key)
    if (!entry) return false
    entry.active = false
    this.changed()
    return true
  }

  /** The account of an active key, or null for a missing, unknown or deactivated key. */
  byKey(key: string | null): Account | null {
    if (!key) return null
    const entry = this.keys.get(key)
    return entry?.active ? (this.accounts.get(entry.accountId) ?? null) : null
  }

  get(accountId: string): Account | undefined {
    return this.accounts.get(accountId)
  }

  require(accountId: string): Account {
    const account = this.accounts.get(accountId)
    if (!account) throw new Error(`unknown account ${accountId}`)
    return account
  }

  topUp(accountId: string, credits: number): Account {
    const account = this.require(accountId)
    account.tenths = Math.max(0, account.tenths + toTenths(credits))
    this.notifyCredit(account)
    return account
  }

  setCredits(accountId: string, credits: number): Account {
    const account = this.require(accountId)
    account.tenths = Math.max(0, toTenths(credits))
    this.notifyCredit(account)
    return account
  }

  setPlan(accountId: string, plan: Partial<Plan>): Account {
    const account = this.require(accountId)
    for (const key of ['phone', 'catchAll', 'freeLeadSearches', 'freeCompanySearches'] as const) {
      if (plan[key] !== undefined) Object.assign(account, { [key]: plan[key] })
    }
    this.changed()
    return account
  }

  /** Takes `tenths` from the balance if it covers them; a balance never goes below zero. */
  charge(account: Account, tenths: number, reason: string, requestId?: string): boolean {
    if (tenths <= 0) return true
    if (account.tenths < tenths) return false
    account.tenths -= tenths
    const entry: ChargeEntry = {
      at: new Date().toISOString(),
      accountId: account.id,
      ...(requestId ? { requestId } : {}),
      credits: toCredits(tenths),
      reason,
    }
    appendBounded(this.charges, entry, this.logLimit)
    this.changed()
    return true
  }

  onCredit(listener: (accountId: string) => void): void {
    this.creditListeners.push(listener)
  }

  /** Takes one free search of the plan when it counts them; false when none is left. */
  useFreeSearch(account: Account, kind: 'freeLeadSearches' | 'freeCompanySearches'): boolean {
    const left = account[kind]
    if (left === 0) return false
    if (left !== null) {
      account[kind] = left - 1
      this.changed()
    }
    return true
  }

  /** Whether the account was answered about `personId`, a mover, before. */
  answeredBefore(accountId: string, personId: number): boolean {
    return this.movers.get(accountId)?.has(personId) ?? false
  }

  /** Notes that the account was answered about `personId`, a mover: their next answer moves them. */
  noteAnswered(accountId: string, personId: number): void {
    let people = this.movers.get(accountId)
    if (!people) this.movers.set(accountId, (people = new Set()))
    if (people.has(personId)) return
    people.add(personId)
    this.changed()
  }

  /** The keys of an account, oldest first. */
  keysOf(accountId: string): string[] {
    return [...this.keys].filter(([, entry]) => entry.accountId === accountId).map(([key]) => key)
  }

  /** Called after every change of a balance, plan, account or key. */
  onChange(listener: () => void): void {
    this.changeListeners.push(listener)
  }

  exportState(): AccountsState {
    return {
      nextId: this.nextId,
      accounts: [...this.accounts.values()].map((account) => ({ ...account })),
      keys: [...this.keys].map(([key, entry]) => ({ key, ...entry })),
      movers: [...this.movers].map(([accountId, people]) => ({ accountId, people: [...people] })),
    }
  }

  /** Replaces every account and key; the charge log starts empty. */
  importState(state: AccountsState): void {
    this.accounts.clear()
    this.keys.clear()
    this.movers.clear()
    for (const account of state.accounts) this.accounts.set(account.id, { ...account })
    for (const { key, accountId, active } of state.keys) this.keys.set(key, { accountId, active })
    for (const { accountId, people } of state.movers ?? []) this.movers.set(accountId, new Set(people))
    this.nextId = state.nextId
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener()
  }

  private notifyCredit(account: Account): void {
    this.changed()
    if (account.tenths > 0) for (const listener of this.creditListeners) listener(account.id)
  }
}
