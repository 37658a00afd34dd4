import type { ApiRequest, SandboxContext } from '../context'
import { isBlank, parseCompanyFilters } from '../filters'
import { json, type Reply } from '../http'
import { companySearchBody, startCompanySearch } from '../jobs/company-search'
import { owned } from '../jobs/store'
import { MESSAGES } from '../messages'
import { failure } from './common'

const MAX_LIMIT = 200
const DEFAULT_LIMIT = 100

/** A number, or a string holding one ("50"); anything else is non-numeric. */
function numeric(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof number === 'number' && Number.isFinite(number) ? number : null
}

/**
 * `limit` and `offset` are integers. The interface sends an unusable `limit` (0, negative, non-numeric)
 * to its default instead of refusing it; the sandbox reads a fractional value (1.5) the same way, as
 * not an integer, rather than cut it to one the caller never sent. Only a `limit` above 200 is refused.
 */
function wholeNumber(value: number | null, min: number): number | null {
  return value !== null && Number.isInteger(value) && value >= min ? value : null
}

export function createCompanySearch(ctx: SandboxContext, request: ApiRequest): Reply {
  const { body, account } = request
  const raw = body.filters
  const filters =
    raw && typeof raw === 'object' && !Array.isArray(raw)
      ? parseCompanyFilters(raw as Record<string, unknown>)
      : null
  if (!filters || isBlank(filters)) return failure(400, 'message', MESSAGES.companyFiltersBlank)
  const requested = numeric(body.limit)
  // The live interface answers a too-large limit with its quota text; kept word for word.
  if (requested !== null && requested > MAX_LIMIT) return failure(422, 'message', MESSAGES.companyQuota)
  const limit = wholeNumber(requested, 1) ?? DEFAULT_LIMIT
  const offset = wholeNumber(numeric(body.offset), 0) ?? 0
  if (account.tenths === 0 && ctx.options.creditsPerCompany > 0) {
    return failure(402, 'message', MESSAGES.companyFinderTokens)
  }
  if (!ctx.accounts.useFreeSearch(account, 'freeCompanySearches'))
    return failure(422, 'message', MESSAGES.companyQuota)
  const job = startCompanySearch(ctx, { accountId: account.id, filters, limit, offset, stuck: request.stuck })
  request.requestId = job.id
  return json(202, { success: true, message: MESSAGES.companyFinderAccepted, request_id: job.id })
}

export function readCompanySearch(ctx: SandboxContext, request: ApiRequest): Reply {
  request.requestId = request.params.id
  const job = owned(ctx.jobs.companySearches, request.params.id, request.account.id)
  if (!job) return failure(404, 'message', MESSAGES.companyFinderNotFound)
  const finished = job.status === 'on_hold' || job.status === 'terminated'
  return json(finished ? 200 : 202, companySearchBody(ctx, job))
}
