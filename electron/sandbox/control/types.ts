import type { ChargeEntry, NewAccount, Plan } from '../accounts'
import type { LogEntry } from '../context'
import type { FaultRule } from '../faults'
import type { WebhookAttempt } from '../webhooks'

export interface AccountState extends Plan {
  accountId: string
  email: string
  /** Exact balance, tenths included. */
  credits: number
}

export interface SandboxLog {
  requests: LogEntry[]
  /** Requests refused for their key (not logged). */
  refused: number
  charges: ChargeEntry[]
  webhooks: WebhookAttempt[]
}

export interface SandboxControl {
  createAccount(input?: NewAccount): Promise<{ accountId: string; email: string; key: string }>
  addKey(accountId: string): Promise<string>
  deactivateKey(key: string): Promise<void>
  topUp(accountId: string, credits: number): Promise<AccountState>
  setCredits(accountId: string, credits: number): Promise<AccountState>
  setPlan(accountId: string, plan: Partial<Plan>): Promise<AccountState>
  setFaults(rules: FaultRule[]): Promise<void>
  clearFaults(): Promise<void>
  log(): Promise<SandboxLog>
  /** Goes out of reach for `ms` real milliseconds (connections dropped, new ones refused), then comes back. */
  outage(ms: number): Promise<void>
  clearLog(): Promise<void>
  /** Exact balance of the account in credits (e.g. 99.9). */
  balance(accountId: string): Promise<number>
  account(accountId: string): Promise<AccountState>
}
