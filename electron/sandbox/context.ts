import type { Account, Accounts } from './accounts'
import type { ByteBoundedLog } from './bounded-log'
import type { Clock } from './clock'
import type { Faults } from './faults'
import type { Jobs } from './jobs/store'
import type { ResolvedOptions } from './options'
import type { Webhooks } from './webhooks'
import type { World } from './world/types'

export interface LogEntry {
  at: string
  method: string
  path: string
  /** null when the connection was dropped without an answer. */
  status: number | null
  key: string | null
  requestId?: string
  body?: unknown
  /** The fault rule that answered instead of the service, when one did: 429s a client did not cause. */
  fault?: 'status429' | 'status500'
}

export interface SandboxContext {
  options: ResolvedOptions
  clock: Clock
  accounts: Accounts
  faults: Faults
  webhooks: Webhooks
  jobs: Jobs
  world(): World
  /** Authenticated requests only: a request without a valid key leaves no trace to fill memory with. */
  requestLog: ByteBoundedLog<LogEntry>
  /** Requests refused for their key, counted and nothing else kept: a test sees a client stop at the first. */
  refused: { requests: number }
  /**
   * With a state directory: saves what changed before an answer leaves, so a request id the client
   * has received is never lost by a crash, as with a real service.
   */
  persist?: () => Promise<void>
  /**
   * Stops listening for `ms` real milliseconds (every open connection dropped, new ones refused, as
   * with a network that went away) while the sandbox's work goes on; then listens on the same port.
   */
  outage?: (ms: number) => void
}

/** What deriving a result from the world needs: the same answer for the same input, any time. */
export type WorldContext = Pick<SandboxContext, 'world' | 'options'>

/** What a handler of the interface receives for one authenticated request. */
export interface ApiRequest {
  body: Record<string, unknown>
  params: { id?: string }
  account: Account
  /** Set when a 'stuck' fault fired: work created by this request never finishes. */
  stuck: boolean
  /** Handlers set the id they created or read, for the request log. */
  requestId?: string
}
