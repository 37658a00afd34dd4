import { toTenths } from '../accounts'
import { companyForDomain, resolvePerson } from '../contacts'
import type { ApiRequest, SandboxContext } from '../context'
import { json, type Reply } from '../http'
import { MESSAGES } from '../messages'
import { answerAbout, answeredTo } from '../movers'
import { companyProfile, leadProfile } from '../rows'
import type { Company, Person } from '../world/types'
import { failure, nonBlank } from './common'

export function lookupCompany(ctx: SandboxContext, request: ApiRequest): Reply {
  const domain = nonBlank(request.body.company_domain)
  const networkUrl = nonBlank(request.body.company_network_url)
  if (!domain && !networkUrl) return failure(422, 'error', MESSAGES.companyIdentifierMissing)
  const world = ctx.world()
  let company: Company | null = networkUrl ? (world.companyByNetworkUrl.get(networkUrl) ?? null) : null
  if (!company && domain) company = companyForDomain(world, domain)
  if (!company) return failure(404, 'error', MESSAGES.companyNotFound)
  return json(200, { success: true, data: companyProfile(company) })
}

export async function lookupLead(ctx: SandboxContext, request: ApiRequest): Promise<Reply> {
  const { body, account } = request
  if (!Object.keys(body).some((key) => key !== 'api_key')) return failure(400, 'error', MESSAGES.dataRequired)
  const networkUrl = nonBlank(body.network_url)
  const firstName = nonBlank(body.first_name)
  const lastName = nonBlank(body.last_name)
  const domain = nonBlank(body.company_domain)
  if (!networkUrl && !(firstName && lastName && domain)) {
    return failure(422, 'error', MESSAGES.leadIdentificationMissing)
  }
  const price = toTenths(ctx.options.creditsPerLeadProfile)
  if (account.tenths < price) return failure(402, 'error', MESSAGES.profileCredits)
  await ctx.clock.sleep(ctx.options.leadProfileMs)
  // A sandbox closing mid-lookup never answers it, so it must not charge it either.
  if (ctx.clock.isClosed) return failure(500, 'error', MESSAGES.serverError)
  const world = ctx.world()
  // A network URL, when present, is the only identifier read.
  const person: Person | null = networkUrl
    ? (world.personByNetworkUrl.get(networkUrl) ?? null)
    : resolvePerson(world, firstName ?? '', lastName ?? '', domain ?? '')
  if (!person) return failure(404, 'error', MESSAGES.profileNotFound)
  if (!ctx.accounts.charge(account, price, 'lead_profile'))
    return failure(402, 'error', MESSAGES.profileCredits)
  const answer = answerAbout(
    world,
    ctx.options.moverShare,
    person,
    false,
    answeredTo(ctx.accounts, account.id),
  )
  if (answer.mover !== null) ctx.accounts.noteAnswered(account.id, answer.mover)
  return json(200, { success: true, data: leadProfile(world.seed, answer.person) })
}
