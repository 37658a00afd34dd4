import { toCredits } from './accounts'

/** Every text the interface answers with, word for word (including its spelling mistakes). */
export const MESSAGES = {
  badRequest: 'Bad request. Please check documentation',
  tooManyContacts: 'No more than 100 contacts allowed in a single batch call',
  filtersRequired: 'Filters parameter is required.',
  leadFiltersBlank: 'Filters parameter is invalid. Include and Exclude can not be blank',
  companyFiltersBlank: 'Filters parameter is invalid. Include values can not be blank',
  dataRequired: 'Data parameter is required.',
  unauthorized: 'Your are not authorized. Please check your api_key.',
  outOfCredits: 'You ran out of credits',
  profileCredits: 'You do not have enough credits to perform a profile search.',
  leadFinderTokens: 'You do not have enough tokens to use Lead Finder API.',
  companyFinderTokens: 'You do not have enough tokens to use Company Finder API.',
  noPhoneFeature: "You don't have access to phone number enrichment feature. Please upgrade your plan.",
  noCatchAllFeature: "You don't have access to verify catch_all feature. Please upgrade your plan.",
  leadFinderNotFound: 'Lead finder request not found.',
  companyFinderNotFound: 'Company finder request not found.',
  profileNotFound: 'Profile was not found.',
  companyNotFound: 'Company was not found.',
  unvalidRequestId: 'Unvalid request_id.',
  leadQuota:
    'You are out of free lead finder requests. Please upgrade your plan to continue using this feature.',
  companyQuota:
    'You are out of free company finder requests. Please upgrade your plan to continue using this feature.',
  singleCompany:
    'Lead finder is not meant for a single company lookup. Please use the /enrich_profile/company endpoint instead.',
  leadFinderNotAccepted: 'Lead finder was not accepted.',
  companyIdentifierMissing: 'company_domain or company_linkedin_url is required.',
  leadIdentificationMissing: 'Linkedin url OR First_name, last_name, company and company domain is missing',
  serverError: 'An error occured',
  companyProfileServerError: 'Something bad happened',
  companyFinderServerError: 'Company finder request failed.',
  retryLater: 'Retry later',
  enrichmentAccepted: 'Enrichment request accepted. Poll GET /async/{request_id} or await the webhook.',
  leadFinderAccepted: 'Lead finder request accepted.',
  companyFinderAccepted: 'Company finder request accepted.',
  notStarted: 'Request is queued and has not started yet.',
  processing: 'Request is being processed.',
  onHold: 'Request is on hold: the credit balance reached zero. It resumes on its own after a top-up.',
  onHoldUntilCredited:
    'Request is on hold until the account is credited. It resumes on its own after a top-up.',
  routeNotFound: 'Route not found.',
} as const

const credits = (tenths: number): string => {
  const amount = toCredits(tenths)
  return `${amount} credit${amount === 1 ? '' : 's'}`
}

/**
 * The `message` of an `on_hold` enrichment or lead search. The interface names one cause, a balance
 * that reached zero. The sandbox also pauses before a charge the balance cannot pay (5 credits left, a
 * 10-credit phone next) rather than charge part of it or drop the phone; it then says so instead of
 * claiming the balance is zero. The last branch only meets prices changed across a restart.
 */
export function onHoldMessage(balanceTenths: number, nextCostTenths: number): string {
  if (balanceTenths === 0) return MESSAGES.onHold
  if (nextCostTenths > balanceTenths) {
    return `Request is on hold: the balance (${credits(balanceTenths)}) cannot pay for the next result (${credits(nextCostTenths)}). It resumes on its own after a top-up.`
  }
  return MESSAGES.onHoldUntilCredited
}
