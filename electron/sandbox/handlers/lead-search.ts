import { toTenths } from '../accounts'
import type { ApiRequest, SandboxContext } from '../context'
import { isBlank, parseLeadFilters, type ParsedFilters } from '../filters'
import { json, type Reply } from '../http'
import { leadSearchBody, startLeadSearch } from '../jobs/lead-search'
import { owned } from '../jobs/store'
import { MESSAGES } from '../messages'
import type { ResolvedOptions } from '../options'
import { failure, flag, webhookUrl } from './common'

type Bound = { ok: true; value: number } | { ok: false }

/** An absent value takes the default; anything else must be an integer within bounds. */
function bounded(value: unknown, min: number, max: number, fallback: number): Bound {
  if (value === undefined || value === null) return { ok: true, value: fallback }
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max)
    return { ok: false }
  return { ok: true, value }
}

function paging(options: ResolvedOptions, body: Record<string, unknown>) {
  const limit = bounded(
    body.limit,
    options.leadSearchMinLimit,
    options.leadSearchMaxLimit,
    options.leadSearchDefaultLimit,
  )
  const offset = bounded(body.offset, 0, options.leadSearchMaxOffset, 0)
  const maxLeads = bounded(body.max_leads, 1, options.leadSearchMaxLeads, options.leadSearchMaxLeads)
  if (!limit.ok || !offset.ok || !maxLeads.ok) return null
  return { limit: limit.value, offset: offset.value, maxLeads: maxLeads.value }
}

function isSingleCompanyLookup(filters: ParsedFilters, limit: number): boolean {
  const company = filters.lists.get('company')
  return (
    limit === 1 &&
    filters.lists.size === 1 &&
    filters.integers.size + filters.booleans.size + filters.texts.size === 0 &&
    company !== undefined &&
    company.include.length === 1 &&
    company.exclude.length === 0
  )
}

export function createLeadSearch(ctx: SandboxContext, request: ApiRequest): Reply {
  const { body, account } = request
  const raw = body.filters
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    return failure(400, 'message', MESSAGES.filtersRequired)
  }
  const page = paging(ctx.options, body)
  if (!page) return failure(422, 'message', MESSAGES.leadFinderNotAccepted)
  const filters = parseLeadFilters(raw as Record<string, unknown>)
  if (isBlank(filters)) return failure(400, 'message', MESSAGES.leadFiltersBlank)
  if (isSingleCompanyLookup(filters, page.limit)) return failure(422, 'message', MESSAGES.singleCompany)
  const flags = {
    email: flag(body.enrich_email_address, false),
    phone: flag(body.enrich_phone_number, false),
    verifyCatchAll: false,
  }
  if (flags.phone && !account.phone) return failure(402, 'message', MESSAGES.noPhoneFeature)
  if ((flags.email || flags.phone) && account.tenths < toTenths(1)) {
    return failure(402, 'message', MESSAGES.leadFinderTokens)
  }
  if (!ctx.accounts.useFreeSearch(account, 'freeLeadSearches'))
    return failure(422, 'message', MESSAGES.leadQuota)
  const job = startLeadSearch(ctx, {
    accountId: account.id,
    filters,
    ...page,
    flags,
    webhook: webhookUrl(body.webhook),
    stuck: request.stuck,
  })
  request.requestId = job.id
  return json(202, { success: true, message: MESSAGES.leadFinderAccepted, request_id: job.id })
}

export function readLeadSearch(ctx: SandboxContext, request: ApiRequest): Reply {
  request.requestId = request.params.id
  const job = owned(ctx.jobs.leadSearches, request.params.id, request.account.id)
  if (!job) return failure(404, 'message', MESSAGES.leadFinderNotFound)
  const finished = job.status === 'on_hold' || job.status === 'terminated'
  return json(finished ? 200 : 202, leadSearchBody(ctx, job))
}
