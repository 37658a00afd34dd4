import { toTenths } from './accounts'
import type { ContactTraits } from './contacts'
import type { ResolvedOptions } from './options'

export interface WorkFlags {
  email: boolean
  phone: boolean
  verifyCatchAll: boolean
}

/** Catch-all addresses are charged unless catch-all verification is on; then only the safe ones are. */
function emailCharged(traits: ContactTraits, verifyCatchAll: boolean): boolean {
  if (traits.emailStatus === 'deliverable') return true
  return verifyCatchAll ? traits.emailStatus === 'catch_all_safe' : traits.emailStatus === 'catch_all'
}

export function leadCostTenths(options: ResolvedOptions, flags: WorkFlags, traits: ContactTraits): number {
  let tenths = 0
  if (flags.email && emailCharged(traits, flags.verifyCatchAll)) tenths += toTenths(options.creditsPerEmail)
  if (flags.phone && traits.phone) tenths += toTenths(options.creditsPerPhone)
  return tenths
}

/** What the caller asked for: email defaults to on, phone and catch-all verification to off. */
export function requestedTraits(flags: WorkFlags, traits: ContactTraits): ContactTraits {
  const email = flags.email
    ? traits
    : { emailStatus: 'not_found' as const, emailAddress: null, emailSource: null, mailboxProvider: null }
  const phone = flags.phone ? traits : { phone: null, phoneSource: null }
  return {
    emailStatus: email.emailStatus,
    emailAddress: email.emailAddress,
    emailSource: email.emailSource,
    mailboxProvider: email.mailboxProvider,
    phone: phone.phone,
    phoneSource: phone.phoneSource,
  }
}
