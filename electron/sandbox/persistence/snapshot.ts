import type { AccountsState } from '../accounts'
import type { SandboxContext, WorldContext } from '../context'
import type { ParsedFilters } from '../filters'
import type { CompanySearchJob } from '../jobs/company-search'
import { enrichLead, type EnrichmentJob } from '../jobs/enrichment'
import { searchedLead, type LeadSearchJob } from '../jobs/lead-search'
import type { SandboxState, SavedFilters, WorldIdentity } from './schema'

export interface RestoredState {
  accounts: AccountsState
  enrichments: EnrichmentJob[]
  leadSearches: LeadSearchJob[]
  companySearches: CompanySearchJob[]
}

export function worldOf(ctx: SandboxContext): WorldIdentity {
  return {
    seed: ctx.options.seed,
    companies: ctx.options.worldCompanies,
    peoplePerCompany: ctx.options.worldPeoplePerCompany,
  }
}

const saveFilters = (filters: ParsedFilters): SavedFilters => ({
  lists: [...filters.lists].map(([name, { include, exclude }]) => [name, { include, exclude }]),
  integers: [...filters.integers],
  booleans: [...filters.booleans],
  texts: [...filters.texts],
})

const loadFilters = (saved: SavedFilters): ParsedFilters => ({
  lists: new Map(saved.lists),
  integers: new Map(saved.integers),
  booleans: new Map(saved.booleans),
  texts: new Map(saved.texts),
})

/**
 * Everything a restarted sandbox needs to answer each request as before. People and companies are saved
 * by id and finished rows by count: both are derived again from the deterministic world.
 */
export function captureState(ctx: SandboxContext): SandboxState {
  return {
    version: 1,
    savedAt: new Date().toISOString(),
    world: worldOf(ctx),
    accounts: ctx.accounts.exportState(),
    enrichments: [...ctx.jobs.enrichments.values()].map((job) => ({
      id: job.id,
      accountId: job.accountId,
      status: job.status,
      stuck: job.stuck,
      consumedTenths: job.consumedTenths,
      nextAt: job.nextAt,
      leads: job.leads,
      done: job.rows.length,
      later: job.later,
      flags: job.flags,
      webhook: job.webhook,
      contactWebhook: job.contactWebhook,
    })),
    leadSearches: [...ctx.jobs.leadSearches.values()].map((job) => ({
      id: job.id,
      accountId: job.accountId,
      status: job.status,
      stuck: job.stuck,
      consumedTenths: job.consumedTenths,
      nextAt: job.nextAt,
      filters: saveFilters(job.filters),
      limit: job.limit,
      offset: job.offset,
      maxLeads: job.maxLeads,
      flags: job.flags,
      webhook: job.webhook,
      searched: job.searched,
      matchIds: job.matches.map((person) => person.id),
      total: job.total,
      done: job.rows.length,
      later: job.later,
    })),
    companySearches: [...ctx.jobs.companySearches.values()].map((job) => ({
      id: job.id,
      accountId: job.accountId,
      status: job.status,
      stuck: job.stuck,
      consumedTenths: job.consumedTenths,
      nextAt: job.nextAt,
      filters: saveFilters(job.filters),
      limit: job.limit,
      offset: job.offset,
      companiesFound: job.companiesFound,
      companyIds: job.companies.map((company) => company.id),
    })),
  }
}

/** Finds world items by id, building the index on first use: most states never need it. */
function lookup<T extends { id: number }>(items: () => T[], what: string): (id: number) => T {
  let byId: Map<number, T> | null = null
  return (id) => {
    byId ??= new Map(items().map((item) => [item.id, item]))
    const item = byId.get(id)
    if (!item) throw new Error(`${what} ${id} is not in the synthetic world`)
    return item
  }
}

/** The results of the first `done` inputs; `later` says which of them were later answers about a mover. */
function derived<I, R>(
  inputs: I[],
  done: number,
  later: number[],
  derive: (input: I, answeredBefore: () => boolean) => R,
  what: string,
): R[] {
  if (done > inputs.length) throw new Error(`${what} has ${done} results for ${inputs.length} inputs`)
  const laterRows = new Set(later)
  return inputs.slice(0, done).map((input, index) => derive(input, () => laterRows.has(index)))
}

/** Rebuilds the jobs of a saved state; throws when the state does not hold together. */
export function decodeState(state: SandboxState, ctx: WorldContext): RestoredState {
  const accountIds = new Set(state.accounts.accounts.map((account) => account.id))
  const owned = (owner: { accountId: string }, what: string): void => {
    if (!accountIds.has(owner.accountId)) throw new Error(`${what} of unknown account ${owner.accountId}`)
  }
  for (const key of state.accounts.keys) owned(key, 'a key')
  for (const job of [...state.enrichments, ...state.leadSearches, ...state.companySearches]) {
    owned(job, `request ${job.id}`)
  }
  const person = lookup(() => ctx.world().people, 'person')
  const company = lookup(() => ctx.world().companies, 'company')
  return {
    accounts: state.accounts,
    enrichments: state.enrichments.map(({ done, later = [], ...job }) => ({
      ...job,
      later,
      rows: derived(
        job.leads,
        done,
        later,
        (lead, before) => enrichLead(ctx, lead, job.flags, before).row,
        `request ${job.id}`,
      ),
    })),
    leadSearches: state.leadSearches.map(({ matchIds, done, later = [], ...job }) => {
      const matches = matchIds.map(person)
      return {
        ...job,
        filters: loadFilters(job.filters),
        matches,
        later,
        rows: derived(
          matches,
          done,
          later,
          (match, before) => searchedLead(ctx, match, job.flags, before).row,
          `request ${job.id}`,
        ),
      }
    }),
    companySearches: state.companySearches.map(({ companyIds, ...job }) => ({
      ...job,
      filters: loadFilters(job.filters),
      companies: companyIds.map(company),
    })),
  }
}
