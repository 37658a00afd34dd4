import { randomUUID } from 'node:crypto'
import { wholeCredits } from '../accounts'
import type { SandboxContext, WorldContext } from '../context'
import { matchPeople } from '../filters'
import { MESSAGES, onHoldMessage } from '../messages'
import { answerAbout, answeredTo, type AnsweredBefore } from '../movers'
import { leadCostTenths, requestedTraits, type WorkFlags } from '../pricing'
import { leadSearchRow } from '../rows'
import type { Person } from '../world/types'
import { runLeadQueue } from './lead-queue'
import { countStatuses } from './summary'
import type { LeadSearchJob } from './records'

export type { LeadSearchJob }

/** What a lead search is started with: the job's own fields before any work. */
export type LeadSearchSubmission = Pick<
  LeadSearchJob,
  'accountId' | 'filters' | 'limit' | 'offset' | 'maxLeads' | 'flags' | 'webhook' | 'stuck'
>

/** `not_started` for the queue time, then `processing`; leads are priced one by one only when enriched. */
export function startLeadSearch(ctx: SandboxContext, submission: LeadSearchSubmission): LeadSearchJob {
  const { stuck, accountId, ...rest } = submission
  const job: LeadSearchJob = {
    id: randomUUID(),
    accountId,
    status: 'not_started',
    stuck,
    consumedTenths: 0,
    nextAt: Date.now() + ctx.clock.scaled(ctx.options.searchQueueMs),
    ...rest,
    searched: false,
    matches: [],
    total: 0,
    rows: [],
    later: [],
  }
  ctx.jobs.leadSearches.set(job.id, job)
  ctx.jobs.changed()
  armLeadSearch(ctx, job)
  return job
}

/** Schedules the next phase of a new or restored lead search, due at `job.nextAt`. */
export function armLeadSearch(ctx: SandboxContext, job: LeadSearchJob): void {
  if (job.status === 'terminated') return
  if (job.searched) return enrichLeads(ctx, job)
  if (job.status === 'not_started') {
    return ctx.clock.at(job.nextAt, () => {
      job.status = 'processing'
      job.nextAt += ctx.clock.scaled(ctx.options.searchWorkMs)
      ctx.jobs.changed()
      armLeadSearch(ctx, job)
    })
  }
  if (job.stuck) return
  ctx.clock.at(job.nextAt, () => {
    const all = matchPeople(ctx.world().people, job.filters)
    job.total = all.length
    job.matches = all.slice(job.offset, job.offset + Math.min(job.limit, job.maxLeads))
    job.searched = true
    job.nextAt += ctx.clock.scaled(leadStepMs(ctx, job))
    ctx.jobs.changed()
    enrichLeads(ctx, job)
  })
}

const leadStepMs = (ctx: SandboxContext, job: LeadSearchJob): number =>
  job.flags.email || job.flags.phone ? ctx.options.leadWorkMs / 10 : 0

/**
 * The row and price of one matched person, a pure function of the person, the flags, the world and
 * whether the account was answered about a mover before. A search matches people as the world holds
 * them; a mover's row then says where they are now, as an enrichment would.
 */
export function searchedLead(
  ctx: WorldContext,
  match: Person,
  flags: WorkFlags,
  answeredBefore: AnsweredBefore,
) {
  const answer = answerAbout(ctx.world(), ctx.options.moverShare, match, false, answeredBefore)
  const traits = requestedTraits(flags, answer.traits)
  return {
    row: leadSearchRow(answer.person, traits),
    cost: leadCostTenths(ctx.options, flags, traits),
    mover: answer.mover,
    later: answer.later,
  }
}

function enrichLeads(ctx: SandboxContext, job: LeadSearchJob): void {
  runLeadQueue(ctx, {
    job,
    stepMs: leadStepMs(ctx, job),
    reason: 'lead_search',
    remaining: () => job.matches.length - job.rows.length,
    peek: () => {
      const match = job.matches[job.rows.length] as Person
      const { row, cost, mover, later } = searchedLead(
        ctx,
        match,
        job.flags,
        answeredTo(ctx.accounts, job.accountId),
      )
      return {
        cost,
        commit: () => {
          if (later) job.later.push(job.rows.length)
          if (mover !== null) ctx.accounts.noteAnswered(job.accountId, mover)
          job.rows.push(row)
        },
      }
    },
    finish: () => {
      job.status = 'terminated'
      if (job.webhook) ctx.webhooks.deliver(job.webhook, leadSearchBody(ctx, job))
    },
  })
}

/** Price of the match the job waits on; `searchedLead` is pure, so this is what the next step will charge. */
function nextLeadCost(ctx: SandboxContext, job: LeadSearchJob): number {
  const person = job.matches[job.rows.length]
  return person ? searchedLead(ctx, person, job.flags, answeredTo(ctx.accounts, job.accountId)).cost : 0
}

export function leadSearchBody(ctx: SandboxContext, job: LeadSearchJob) {
  const balance = ctx.accounts.require(job.accountId).tenths
  const base = {
    id: job.id,
    status: job.status,
    credits_consumed: wholeCredits(job.consumedTenths),
    credits_left: wholeCredits(balance),
  }
  if (job.status === 'not_started') return { ...base, message: MESSAGES.notStarted }
  if (job.status === 'processing') return { ...base, message: MESSAGES.processing }
  if (job.status === 'on_hold') return { ...base, message: onHoldMessage(balance, nextLeadCost(ctx, job)) }
  const { total: _rows, ...counts } = countStatuses(job.rows.map((row) => row.contact_email_address_status))
  return {
    ...base,
    summary: {
      leads_found: job.rows.length,
      limit: job.limit,
      offset: job.offset,
      total: job.total,
      ...counts,
    },
    leads: job.rows,
  }
}
