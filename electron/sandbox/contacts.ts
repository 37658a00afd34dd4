import { Faker, en } from '@faker-js/faker'
import { generateCompany } from './world/companies'
import { generatePerson } from './world/people'
import { hashText, rngFor } from './world/random'
import { normaliseDomain, slug, titleCase } from './world/text'
import { identityKey, type Company, type Person, type World } from './world/types'

export type EmailStatus =
  'deliverable' | 'catch_all' | 'catch_all_safe' | 'catch_all_not_safe' | 'undeliverable' | 'not_found'

export interface ContactTraits {
  emailStatus: EmailStatus
  emailAddress: string | null
  emailSource: string | null
  mailboxProvider: string | null
  phone: string | null
  phoneSource: string | null
}

const SOURCES = ['waterfall_alpha', 'waterfall_beta', 'waterfall_gamma', 'waterfall_delta']
const MAILBOX_PROVIDERS = ['google', 'microsoft', 'zoho', 'proofpoint', 'other']
/** Domains under these reserved names never resolve, so callers and tests have a guaranteed miss. */
const UNRESOLVABLE_TLDS = /\.(invalid|test|example|localhost)$/

const synthesiser = new Faker({ locale: [en] })

export function resolvable(domain: string): boolean {
  return domain.length > 0 && domain.includes('.') && !UNRESOLVABLE_TLDS.test(domain)
}

/** A company for any domain: the world's own, or a stable invention so a user's own list looks real. */
export function companyForDomain(world: World, rawDomain: string): Company | null {
  const domain = normaliseDomain(rawDomain)
  const known = world.companyByDomain.get(domain)
  if (known) return known
  if (!resolvable(domain)) return null
  const seed = hashText(`${world.seed}|company|${domain}`)
  synthesiser.seed(seed)
  const company = generateCompany(
    1_000_000 + (seed % 8_000_000),
    rngFor(seed, 'company'),
    synthesiser,
    new Set(),
  )
  const label = domain.split('.')[0] ?? domain
  company.name = titleCase(label.replace(/[-_]+/g, ' '))
  company.domain = domain
  company.networkUrl = `https://network.example.com/company/${slug(label)}`
  company.fundingdbUrl = `https://fundingdb.example.com/organization/${slug(label)}`
  company.logoUrl = `https://logos.example.com/${domain}.png`
  company.description = `${company.name} is a ${company.industry.toLowerCase()} company.`
  return company
}

/**
 * The person behind an enrichment input: a world person when name and domain match one, otherwise a
 * stable invention for most inputs and nobody for the rest (about one in seven, plus opt-outs).
 */
export function resolvePerson(
  world: World,
  firstName: string,
  lastName: string,
  rawDomain: string,
): Person | null {
  const domain = normaliseDomain(rawDomain)
  const identity = identityKey(firstName, lastName, domain)
  const rng = rngFor(world.seed, 'person', identity)
  const optedOut = rng.chance(0.04)
  const known = world.personByIdentity.get(identity)
  if (known) return optedOut ? null : known
  if (!firstName.trim() || !lastName.trim() || optedOut || !rng.chance(0.85)) return null
  const company = companyForDomain(world, domain)
  if (!company) return null
  const seed = hashText(`${world.seed}|person|${identity}`)
  synthesiser.seed(seed)
  const person = generatePerson(10_000_000 + (seed % 80_000_000), company, rng, synthesiser)
  person.firstName = titleCase(firstName)
  person.lastName = titleCase(lastName)
  person.networkUrl = `https://network.example.com/in/${slug(`${firstName}-${lastName}`)}-${person.id.toString(36)}`
  person.headline = person.headline ? `${person.jobTitle} at ${company.name}` : ''
  return person
}

export function contactIdFor(world: World, firstName: string, lastName: string, domain: string): number {
  return (
    10_000_000 +
    (hashText(`${world.seed}|id|${identityKey(firstName, lastName, normaliseDomain(domain))}`) % 80_000_000)
  )
}

function emailLocalPart(person: Person): string {
  return `${slug(person.firstName)}.${slug(person.lastName)}`.replace(/-/g, '')
}

/** Email and phone of a person: fixed per person, spread over every status. */
export function contactTraits(world: World, person: Person, verifyCatchAll: boolean): ContactTraits {
  const rng = rngFor(world.seed, 'traits', String(person.id), person.company.domain)
  const roll = rng.next()
  const catchAllSafe = rng.chance(0.6)
  let emailStatus: EmailStatus
  if (roll < 0.5) emailStatus = 'deliverable'
  else if (roll < 0.7)
    emailStatus = verifyCatchAll ? (catchAllSafe ? 'catch_all_safe' : 'catch_all_not_safe') : 'catch_all'
  else if (roll < 0.82) emailStatus = 'undeliverable'
  else emailStatus = 'not_found'
  const hasPhone = rng.chance(0.4)
  const phoneDigits = String(rng.int(200_000_000, 999_999_999))
  const found = emailStatus !== 'not_found'
  return {
    emailStatus,
    emailAddress: found ? `${emailLocalPart(person)}@${person.company.domain}` : null,
    emailSource: found ? rng.pick(SOURCES) : null,
    mailboxProvider: found ? rng.pick(MAILBOX_PROVIDERS) : null,
    phone: hasPhone ? `${person.location.phonePrefix}${phoneDigits}` : null,
    phoneSource: hasPhone ? rng.pick(SOURCES) : null,
  }
}

export const NO_TRAITS: ContactTraits = {
  emailStatus: 'not_found',
  emailAddress: null,
  emailSource: null,
  mailboxProvider: null,
  phone: null,
  phoneSource: null,
}
