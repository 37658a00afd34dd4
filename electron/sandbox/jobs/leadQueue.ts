import type { Account } from '../accounts'
import type { SandboxContext } from '../context'

/** Work on a list of leads, one at a time, that pauses when the balance cannot pay for the next one. */
export interface LeadQueueJob {
  id: string
  accountId: string
  status: 'not_started' | 'processing' | 'on_hold' | 'terminated'
  stuck: boolean
  consumedTenths: number
  /** Set once the queue runs: restarts it after an `on_hold`. */
  resume?: () => void
}

export interface LeadStep {
  /** Price of the next lead in tenths of a credit. */
  cost: number
  /** Records the lead's result once it is paid for. */
  commit(): void
}

export interface LeadQueue<J extends LeadQueueJob> {
  job: J
  remaining(): number
  /** The next lead; only called while leads remain. */
  peek(): LeadStep
  finish(): void
  stepMs: number
  /** Reason written in the charge log. */
  reason: string
}

/**
 * Runs one lead per step. The queue goes `on_hold` when the next lead costs more than the balance, or
 * when its own charge empties the balance while leads remain; a credit to the account resumes it.
 */
export function runLeadQueue<J extends LeadQueueJob>(ctx: SandboxContext, queue: LeadQueue<J>): void {
  const { job } = queue
  const account = (): Account => ctx.accounts.require(job.accountId)
  const step = (): void => {
    if (job.status !== 'processing' || job.stuck) return
    if (queue.remaining() === 0) return queue.finish()
    const next = queue.peek()
    if (next.cost > 0 && !ctx.accounts.charge(account(), next.cost, queue.reason, job.id)) {
      job.status = 'on_hold'
      return
    }
    job.consumedTenths += next.cost
    next.commit()
    if (queue.remaining() === 0) return queue.finish()
    if (next.cost > 0 && account().tenths === 0) {
      job.status = 'on_hold'
      return
    }
    ctx.clock.after(queue.stepMs, step)
  }
  job.resume = () => {
    job.status = 'processing'
    ctx.clock.after(queue.stepMs, step)
  }
  ctx.clock.after(queue.stepMs, step)
}
