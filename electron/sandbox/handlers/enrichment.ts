import { toTenths } from '../accounts'
import type { ApiRequest, SandboxContext } from '../context'
import { json, type Reply } from '../http'
import { enrichmentBody, startEnrichment } from '../jobs/enrichment'
import { owned } from '../jobs/store'
import { MESSAGES } from '../messages'
import { failure, flag, webhookUrl } from './common'

const MAX_LEADS = 100

/** `data` holds lead objects; a number, string, null or array in it is not one. */
const isLeadObject = (item: unknown): boolean =>
  item !== null && typeof item === 'object' && !Array.isArray(item)

export function createEnrichment(ctx: SandboxContext, request: ApiRequest): Reply {
  const { body, account } = request
  const { options } = ctx
  const data = body.data
  // The interface names this text for `data` missing or not an array; the sandbox reads an array
  // holding anything but lead objects as not the array of lead objects it asks for.
  if (!Array.isArray(data) || data.length === 0 || !data.every(isLeadObject))
    return failure(400, 'error', MESSAGES.badRequest)
  if (data.length > MAX_LEADS) return failure(400, 'error', MESSAGES.tooManyContacts)
  // The interface does not show these defaults; they are options of the sandbox.
  const flags = {
    email: flag(body.enrich_email_address, options.defaultEnrichEmail),
    phone: flag(body.enrich_phone_number, options.defaultEnrichPhone),
    verifyCatchAll: flag(body.verify_catch_all, options.defaultVerifyCatchAll),
  }
  const pushEach = flag(body.push_contact_individually, options.defaultPushContactIndividually)
  if (flags.phone && !account.phone) return failure(402, 'error', MESSAGES.noPhoneFeature)
  if (flags.verifyCatchAll && !account.catchAll) return failure(402, 'error', MESSAGES.noCatchAllFeature)
  if (account.tenths < toTenths(1)) return failure(402, 'error', MESSAGES.outOfCredits)
  const job = startEnrichment(ctx, {
    accountId: account.id,
    leads: data,
    flags,
    webhook: webhookUrl(body.webhook),
    contactWebhook: pushEach ? webhookUrl(body.contact_webhook) : null,
    stuck: request.stuck,
  })
  request.requestId = job.id
  return json(201, { success: true, id: job.id, message: MESSAGES.enrichmentAccepted })
}

export function readEnrichment(ctx: SandboxContext, request: ApiRequest): Reply {
  request.requestId = request.params.id
  const job = owned(ctx.jobs.enrichments, request.params.id, request.account.id)
  if (!job) return json(406, { error: MESSAGES.unvalidRequestId })
  return json(job.status === 'processing' ? 202 : 200, enrichmentBody(ctx, job))
}
