import type { ApiRequest, SandboxContext } from './context'
import type { FaultEndpoint } from './faults'
import { readAccount } from './handlers/account'
import type { ErrorField } from './handlers/common'
import { createCompanySearch, readCompanySearch } from './handlers/company-search'
import { createEnrichment, readEnrichment } from './handlers/enrichment'
import { createLeadSearch, readLeadSearch } from './handlers/lead-search'
import { lookupCompany, lookupLead } from './handlers/profiles'
import type { Reply } from './http'
import { MESSAGES } from './messages'

export interface Route {
  endpoint: Exclude<FaultEndpoint, '*'>
  method: 'GET' | 'POST'
  pattern: RegExp
  /** Requests that create asynchronous work (what a 'stuck' fault acts on). */
  createsWork: boolean
  errorField: ErrorField
  serverError: string
  /**
   * 400 text for a body that is not a JSON object. The interface shows no answer to it; a malformed body
   * carries none of the fields, so each endpoint answers the 400 it gives for its required field missing.
   */
  malformedBody: string
  keyInBody: boolean
  keyInQuery: boolean
  rateLimited: boolean
  handle(ctx: SandboxContext, request: ApiRequest): Reply | Promise<Reply>
}

const ID = '([^/]+)'

const base = {
  createsWork: false,
  errorField: 'error' as ErrorField,
  serverError: MESSAGES.serverError as string,
  malformedBody: MESSAGES.badRequest as string,
  keyInBody: false,
  keyInQuery: false,
  rateLimited: true,
}

export const ROUTES: Route[] = [
  {
    ...base,
    endpoint: 'POST /async',
    method: 'POST',
    pattern: /^\/async$/,
    createsWork: true,
    handle: createEnrichment,
  },
  {
    ...base,
    endpoint: 'GET /async/:id',
    method: 'GET',
    pattern: new RegExp(`^/async/${ID}$`),
    handle: readEnrichment,
  },
  {
    ...base,
    endpoint: 'POST /lead_finder/async',
    method: 'POST',
    pattern: /^\/lead_finder\/async$/,
    createsWork: true,
    errorField: 'message',
    malformedBody: MESSAGES.filtersRequired,
    handle: createLeadSearch,
  },
  {
    ...base,
    endpoint: 'GET /lead_finder/async/:id',
    method: 'GET',
    pattern: new RegExp(`^/lead_finder/async/${ID}$`),
    errorField: 'message',
    handle: readLeadSearch,
  },
  {
    ...base,
    endpoint: 'POST /company_finder/async',
    method: 'POST',
    pattern: /^\/company_finder\/async$/,
    createsWork: true,
    errorField: 'message',
    malformedBody: MESSAGES.companyFiltersBlank,
    serverError: MESSAGES.companyFinderServerError,
    handle: createCompanySearch,
  },
  {
    ...base,
    endpoint: 'GET /company_finder/async/:id',
    method: 'GET',
    pattern: new RegExp(`^/company_finder/async/${ID}$`),
    errorField: 'message',
    serverError: MESSAGES.companyFinderServerError,
    handle: readCompanySearch,
  },
  {
    ...base,
    endpoint: 'POST /enrich_profile/company',
    method: 'POST',
    pattern: /^\/enrich_profile\/company$/,
    serverError: MESSAGES.companyProfileServerError,
    // This endpoint shows no 400 of its own, so it answers with the interface's general bad-request text.
    malformedBody: MESSAGES.badRequest,
    keyInBody: true,
    handle: lookupCompany,
  },
  {
    ...base,
    endpoint: 'POST /enrich_profile/lead',
    method: 'POST',
    pattern: /^\/enrich_profile\/lead$/,
    malformedBody: MESSAGES.dataRequired,
    keyInBody: true,
    handle: lookupLead,
  },
  {
    ...base,
    endpoint: 'GET /account',
    method: 'GET',
    pattern: /^\/account$/,
    keyInQuery: true,
    rateLimited: false,
    handle: (_ctx, request) => readAccount(request),
  },
]

export function matchRoute(method: string, path: string): { route: Route; id?: string } | null {
  for (const route of ROUTES) {
    if (route.method !== method) continue
    const match = route.pattern.exec(path)
    if (match) return { route, ...(match[1] !== undefined ? { id: decodeURIComponent(match[1]) } : {}) }
  }
  return null
}
