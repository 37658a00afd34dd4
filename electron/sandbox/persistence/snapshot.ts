import type { AccountsState } from '../accounts'
import type { SandboxContext } from '../context'
import type { ParsedFilters } from '../filters'
import type { CompanySearchJob } from '../jobs/companySearch'
import type { EnrichmentJob } from '../jobs/enrichment'
import type { LeadSearchJob } from '../jobs/leadSearch'
import type { EnrichedRow, LeadSearchRow } from '../rows'
import type { World } from '../world/types'
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

/** Everything a restarted sandbox needs to answer each request as before; people and companies by id. */
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
      rows: job.rows,
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
      rows: job.rows,
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

/** Rebuilds the jobs of a saved state; throws when the state does not hold together. */
export function decodeState(state: SandboxState, world: () => World): RestoredState {
  const accountIds = new Set(state.accounts.accounts.map((account) => account.id))
  const owned = (owner: { accountId: string }, what: string): void => {
    if (!accountIds.has(owner.accountId)) throw new Error(`${what} of unknown account ${owner.accountId}`)
  }
  for (const key of state.accounts.keys) owned(key, 'a key')
  for (const job of [...state.enrichments, ...state.leadSearches, ...state.companySearches]) {
    owned(job, `request ${job.id}`)
  }
  const person = lookup(() => world().people, 'person')
  const company = lookup(() => world().companies, 'company')
  return {
    accounts: state.accounts,
    enrichments: state.enrichments.map((job) => ({ ...job, rows: job.rows as EnrichedRow[] })),
    leadSearches: state.leadSearches.map(({ matchIds, ...job }) => ({
      ...job,
      filters: loadFilters(job.filters),
      matches: matchIds.map(person),
      rows: job.rows as LeadSearchRow[],
    })),
    companySearches: state.companySearches.map(({ companyIds, ...job }) => ({
      ...job,
      filters: loadFilters(job.filters),
      companies: companyIds.map(company),
    })),
  }
}
