import { randomUUID } from 'node:crypto'
import { decimalCredits, toTenths } from '../accounts'
import type { SandboxContext } from '../context'
import { matchCompanies, type ParsedFilters } from '../filters'
import { companySearchRow } from '../rows'
import type { CompanySearchJob } from './records'

export type { CompanySearchJob }

export interface CompanySearchSubmission {
  accountId: string
  filters: ParsedFilters
  limit: number
  offset: number
  stuck: boolean
}

/**
 * Each page is charged on its own, per company returned. A balance that cannot pay for one company
 * puts the search `on_hold` for good with nothing charged; a balance that pays for some returns those.
 */
export function startCompanySearch(
  ctx: SandboxContext,
  submission: CompanySearchSubmission,
): CompanySearchJob {
  const { stuck, ...rest } = submission
  const job: CompanySearchJob = {
    id: randomUUID(),
    ...rest,
    status: 'not_started',
    stuck,
    consumedTenths: 0,
    nextAt: Date.now() + ctx.clock.scaled(ctx.options.searchQueueMs),
    companiesFound: 0,
    companies: [],
  }
  ctx.jobs.companySearches.set(job.id, job)
  ctx.jobs.changed()
  armCompanySearch(ctx, job)
  return job
}

/** Schedules the next phase of a new or restored company search, due at `job.nextAt`. */
export function armCompanySearch(ctx: SandboxContext, job: CompanySearchJob): void {
  if (job.status === 'not_started') {
    return ctx.clock.at(job.nextAt, () => {
      job.status = 'processing'
      job.nextAt += ctx.clock.scaled(ctx.options.searchWorkMs)
      ctx.jobs.changed()
      armCompanySearch(ctx, job)
    })
  }
  if (job.status === 'processing' && !job.stuck) {
    ctx.clock.at(job.nextAt, () => {
      finishCompanySearch(ctx, job)
      ctx.jobs.changed()
    })
  }
}

function finishCompanySearch(ctx: SandboxContext, job: CompanySearchJob): void {
  const all = matchCompanies(ctx.world().companies, job.filters)
  const page = all.slice(job.offset, job.offset + job.limit)
  const account = ctx.accounts.require(job.accountId)
  const price = toTenths(ctx.options.creditsPerCompany)
  if (page.length > 0 && price > 0 && account.tenths < price) {
    job.status = 'on_hold'
    return
  }
  const affordable = price > 0 ? Math.min(page.length, Math.floor(account.tenths / price)) : page.length
  ctx.accounts.charge(account, affordable * price, 'company_search', job.id)
  job.consumedTenths = affordable * price
  job.companiesFound = all.length
  job.companies = page.slice(0, affordable)
  job.status = 'terminated'
}

export function companySearchBody(ctx: SandboxContext, job: CompanySearchJob) {
  const base = {
    id: job.id,
    status: job.status,
    credits_consumed: decimalCredits(job.consumedTenths),
    credits_left: decimalCredits(ctx.accounts.require(job.accountId).tenths),
  }
  if (job.status !== 'terminated') return base
  return {
    ...base,
    summary: { companies_found: job.companiesFound, limit: job.limit, offset: job.offset },
    companies: job.companies.map(companySearchRow),
  }
}
