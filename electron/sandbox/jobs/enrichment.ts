import { randomUUID } from 'node:crypto'
import { wholeCredits } from '../accounts'
import { contactIdFor, NO_TRAITS, resolvePerson } from '../contacts'
import type { SandboxContext, WorldContext } from '../context'
import { MESSAGES, onHoldMessage } from '../messages'
import { answerAbout, answeredTo, type AnsweredBefore } from '../movers'
import { leadCostTenths, requestedTraits, type WorkFlags } from '../pricing'
import { customFieldsArray, enrichedRow, type EnrichedRow } from '../rows'
import { countStatuses, enrichedCount } from './summary'
import { runLeadQueue } from './lead-queue'
import type { EnrichmentJob } from './records'

export type { EnrichmentJob }

export interface EnrichmentSubmission {
  accountId: string
  leads: unknown[]
  flags: WorkFlags
  webhook: string | null
  contactWebhook: string | null
  stuck: boolean
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '')

/**
 * The row and price of one lead, a pure function of the lead, the flags, the world and whether the
 * account was answered about a mover before (`movers.ts`); `mover` is the id to note once it is given.
 */
export function enrichLead(
  ctx: WorldContext,
  lead: unknown,
  flags: WorkFlags,
  answeredBefore: AnsweredBefore,
) {
  const input = lead && typeof lead === 'object' ? (lead as Record<string, unknown>) : {}
  const world = ctx.world()
  const firstName = str(input.first_name)
  const lastName = str(input.last_name)
  const domain = str(input.company_domain)
  // A network profile URL of a world person identifies the lead on its own, as in the lead profile lookup.
  const found =
    world.personByNetworkUrl.get(str(input.network_url).trim()) ??
    resolvePerson(world, firstName, lastName, domain)
  const answer = found
    ? answerAbout(world, ctx.options.moverShare, found, flags.verifyCatchAll, answeredBefore)
    : null
  const person = answer?.person ?? null
  const traits = answer ? requestedTraits(flags, answer.traits) : NO_TRAITS
  const row = enrichedRow(
    {
      contactId: contactIdFor(world, firstName, lastName, domain),
      firstName,
      lastName,
      domain: domain.trim().toLowerCase(),
      customFields: customFieldsArray(input.custom_fields),
    },
    person,
    traits,
  )
  return {
    row,
    cost: person ? leadCostTenths(ctx.options, flags, traits) : 0,
    mover: answer?.mover ?? null,
    later: answer?.later ?? false,
  }
}

export function startEnrichment(ctx: SandboxContext, submission: EnrichmentSubmission): EnrichmentJob {
  const job: EnrichmentJob = {
    id: randomUUID(),
    accountId: submission.accountId,
    status: 'processing',
    stuck: submission.stuck,
    consumedTenths: 0,
    nextAt: Date.now() + ctx.clock.scaled(ctx.options.leadWorkMs),
    leads: submission.leads,
    rows: [],
    later: [],
    flags: submission.flags,
    webhook: submission.webhook,
    contactWebhook: submission.contactWebhook,
  }
  ctx.jobs.enrichments.set(job.id, job)
  ctx.jobs.changed()
  armEnrichment(ctx, job)
  return job
}

/** Schedules the remaining work of a new or restored enrichment, and its resumption after an `on_hold`. */
export function armEnrichment(ctx: SandboxContext, job: EnrichmentJob): void {
  if (job.status === 'terminated') return
  runLeadQueue(ctx, {
    job,
    stepMs: ctx.options.leadWorkMs,
    reason: 'enrichment',
    remaining: () => job.leads.length - job.rows.length,
    peek: () => {
      const { row, cost, mover, later } = enrichLead(
        ctx,
        job.leads[job.rows.length],
        job.flags,
        answeredTo(ctx.accounts, job.accountId),
      )
      return {
        cost,
        commit: () => {
          if (later) job.later.push(job.rows.length)
          if (mover !== null) ctx.accounts.noteAnswered(job.accountId, mover)
          job.rows.push(row)
          if (job.contactWebhook) ctx.webhooks.push(job.contactWebhook, { request_id: job.id, ...row })
        },
      }
    },
    finish: () => {
      job.status = 'terminated'
      if (job.webhook) ctx.webhooks.deliver(job.webhook, enrichmentBody(ctx, job))
    },
  })
}

/** Price of the lead the job waits on; `enrichLead` is pure, so this is what the next step will charge. */
function nextLeadCost(ctx: SandboxContext, job: EnrichmentJob): number {
  return job.rows.length < job.leads.length
    ? enrichLead(ctx, job.leads[job.rows.length], job.flags, answeredTo(ctx.accounts, job.accountId)).cost
    : 0
}

export function enrichmentBody(ctx: SandboxContext, job: EnrichmentJob) {
  const balance = ctx.accounts.require(job.accountId).tenths
  const base = {
    id: job.id,
    status: job.status,
    credits_consumed: wholeCredits(job.consumedTenths),
    credits_left: wholeCredits(balance),
  }
  if (job.status === 'processing') return { ...base, message: MESSAGES.processing }
  if (job.status === 'on_hold') return { ...base, message: onHoldMessage(balance, nextLeadCost(ctx, job)) }
  const total = job.rows.length
  const counted = (test: (row: EnrichedRow) => boolean) => enrichedCount(total, job.rows.filter(test).length)
  return {
    ...base,
    summary: {
      ...countStatuses(job.rows.map((row) => row.contact_email_address_status)),
      email_enrichment: counted((row) => row.contact_email_address !== null),
      phone_enrichment: counted((row) => row.contact_phone_number !== null),
      profile_enrichment: counted((row) => row.enriched),
    },
    data: job.rows,
  }
}
