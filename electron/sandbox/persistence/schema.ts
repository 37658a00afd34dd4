import { z } from 'zod'

const count = z.number().int().nonnegative()
const freeSearches = count.nullable()

const account = z.object({
  id: z.string(),
  email: z.string(),
  tenths: count,
  phone: z.boolean(),
  catchAll: z.boolean(),
  freeLeadSearches: freeSearches,
  freeCompanySearches: freeSearches,
})

const key = z.object({ key: z.string(), accountId: z.string(), active: z.boolean() })

const flags = z.object({ email: z.boolean(), phone: z.boolean(), verifyCatchAll: z.boolean() })

/** `ParsedFilters` with each Map as its list of entries. */
const filters = z.object({
  lists: z.array(
    z.tuple([z.string(), z.object({ include: z.array(z.string()), exclude: z.array(z.string()) })]),
  ),
  integers: z.array(z.tuple([z.string(), z.number()])),
  booleans: z.array(z.tuple([z.string(), z.boolean()])),
  texts: z.array(z.tuple([z.string(), z.string()])),
})

const job = {
  id: z.string(),
  accountId: z.string(),
  stuck: z.boolean(),
  consumedTenths: count,
  nextAt: z.number(),
}

const searchStatus = z.enum(['not_started', 'processing', 'on_hold', 'terminated'])

const enrichment = z.object({
  ...job,
  status: z.enum(['processing', 'on_hold', 'terminated']),
  leads: z.array(z.unknown()),
  /** Leads enriched so far; their rows are derived again from the leads. */
  done: count,
  /** Which of those rows were later answers about a mover; absent in states saved before. */
  later: z.array(count).optional(),
  flags,
  webhook: z.string().nullable(),
  contactWebhook: z.string().nullable(),
})

const leadSearch = z.object({
  ...job,
  status: searchStatus,
  filters,
  limit: count,
  offset: count,
  maxLeads: count,
  flags,
  webhook: z.string().nullable(),
  searched: z.boolean(),
  matchIds: z.array(count),
  total: count,
  /** Matches enriched so far; their rows are derived again from the people. */
  done: count,
  /** Which of those rows were later answers about a mover; absent in states saved before. */
  later: z.array(count).optional(),
})

const companySearch = z.object({
  ...job,
  status: searchStatus,
  filters,
  limit: count,
  offset: count,
  companiesFound: count,
  companyIds: z.array(count),
})

/** Which synthetic world the saved requests point into (people and companies are saved by id). */
export const worldIdentity = z.object({ seed: z.number(), companies: count, peoplePerCompany: count })

export const sandboxState = z.object({
  version: z.literal(1),
  savedAt: z.string(),
  world: worldIdentity,
  accounts: z.object({
    nextId: count,
    accounts: z.array(account),
    keys: z.array(key),
    /** The movers each account was answered about; absent in states saved before. */
    movers: z.array(z.object({ accountId: z.string(), people: z.array(count) })).optional(),
  }),
  enrichments: z.array(enrichment),
  leadSearches: z.array(leadSearch),
  companySearches: z.array(companySearch),
})

export type SandboxState = z.infer<typeof sandboxState>
export type WorldIdentity = z.infer<typeof worldIdentity>
export type SavedFilters = z.infer<typeof filters>
