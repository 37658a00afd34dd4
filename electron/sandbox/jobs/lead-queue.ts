import type { Account } from '../accounts'
import type { SandboxContext } from '../context'
import type { LeadQueueJob } from './records'

export type { LeadQueueJob }

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
 * Runs one lead per step, each step due `stepMs` after the previous one was due, so a job restored late
 * catches up at once. The queue goes `on_hold` when the next lead costs more than the balance, or when
 * its own charge empties the balance while leads remain; a credit to the account resumes it.
 * Arms the step due at `job.nextAt` when the job is `processing`.
 */
export function runLeadQueue<J extends LeadQueueJob>(ctx: SandboxContext, queue: LeadQueue<J>): void {
  const { job } = queue
  const stepMs = ctx.clock.scaled(queue.stepMs)
  const account = (): Account => ctx.accounts.require(job.accountId)
  const schedule = (at: number): void => {
    job.nextAt = at
    ctx.clock.at(at, step)
  }
  const hold = (): void => {
    job.status = 'on_hold'
    ctx.jobs.changed()
  }
  const finish = (): void => {
    queue.finish()
    ctx.jobs.changed()
  }
  const step = (): void => {
    if (job.status !== 'processing' || job.stuck) return
    if (queue.remaining() === 0) return finish()
    const next = queue.peek()
    if (next.cost > 0 && !ctx.accounts.charge(account(), next.cost, queue.reason, job.id)) return hold()
    job.consumedTenths += next.cost
    next.commit()
    if (queue.remaining() === 0) return finish()
    if (next.cost > 0 && account().tenths === 0) return hold()
    schedule(job.nextAt + stepMs)
    ctx.jobs.changed()
  }
  job.resume = () => {
    job.status = 'processing'
    schedule(Date.now() + stepMs)
    ctx.jobs.changed()
  }
  if (job.status === 'processing' && !job.stuck) ctx.clock.at(job.nextAt, step)
}
