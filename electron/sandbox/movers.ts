import type { Accounts } from './accounts'
import { contactTraits, type ContactTraits } from './contacts'
import { rngFor } from './world/random'
import { jobTitle } from './world/titles'
import type { Person, World } from './world/types'

/**
 * People whose answers change, so a client's "what changed" can be tried without a key. A seeded share
 * of people (`moverShare`, chosen by a hash of the seed and the person's id, so every run of the sandbox
 * picks the same ones) is answered as the world holds them the first time an account is told of them,
 * and changed on every later answer to that account: moved to another company, promoted to another
 * title, or given another email address at the same company. Each account sees the change at its own
 * second answer, so accounts (and tests) never disturb each other.
 */
export type MoveKind = 'company' | 'title' | 'email'

/** The seniorities a promotion climbs, lowest first; the top rungs and the titles of no department move across. */
const LADDER = ['intern', 'entry', 'senior', 'manager', 'director', 'head', 'vp', 'c_suite']

/**
 * How `person` changes at their later answers, or null when they do not. An email change is drawn only
 * for a person with an address to change (a status other than `not_found`), so every mover shows it.
 */
export function moveOf(world: World, share: number, person: Person, traits: ContactTraits): MoveKind | null {
  const rng = rngFor(world.seed, 'mover', String(person.id))
  if (!rng.chance(share)) return null
  const roll = rng.next()
  if (roll < 0.4) return 'company'
  if (roll < 0.7 || traits.emailAddress === null) return 'title'
  return 'email'
}

/** Another company of the world than the person's own, the same for every run. */
function nextCompany(world: World, person: Person) {
  const companies = world.companies
  const start = rngFor(world.seed, 'mover-company', String(person.id)).int(0, companies.length - 1)
  for (let step = 0; step < companies.length; step++) {
    const company = companies[(start + step) % companies.length]!
    if (company.domain !== person.company.domain) return company
  }
  return person.company
}

/** A title one rung up, or at the top of the ladder, the same rung in another department. */
function promoted(person: Person): Pick<Person, 'jobTitle' | 'seniority'> {
  const rung = LADDER.indexOf(person.seniority)
  if (rung >= 0 && rung < LADDER.length - 1) {
    const seniority = LADDER[rung + 1]!
    return { seniority, jobTitle: jobTitle(seniority, person.department) }
  }
  const department = person.department === 'operations' ? 'product' : 'operations'
  return { seniority: 'c_suite', jobTitle: jobTitle('c_suite', department) }
}

/** `first.last@domain` as `flast@domain`: the address a company gives when it changes its scheme. */
function otherAddress(address: string): string {
  const [local = '', domain = ''] = address.split('@')
  const [first = '', ...rest] = local.split('.')
  return rest.length > 0 ? `${first.slice(0, 1)}${rest.join('')}@${domain}` : `${local}.mail@${domain}`
}

/**
 * The person and their traits as a later answer gives them. The traits keep every status and source,
 * so a later answer costs what the first did; only the address moves with the person.
 */
export function moved(
  world: World,
  person: Person,
  traits: ContactTraits,
  kind: MoveKind,
): { person: Person; traits: ContactTraits } {
  if (kind === 'title') {
    const title = promoted(person)
    const headline = person.headline ? `${title.jobTitle} at ${person.company.name}` : ''
    return { person: { ...person, ...title, headline }, traits }
  }
  if (kind === 'email') {
    const emailAddress = traits.emailAddress === null ? null : otherAddress(traits.emailAddress)
    return { person, traits: { ...traits, emailAddress } }
  }
  const company = nextCompany(world, person)
  const headline = person.headline ? `${person.jobTitle} at ${company.name}` : ''
  const emailAddress =
    traits.emailAddress === null ? null : `${traits.emailAddress.split('@')[0]}@${company.domain}`
  return { person: { ...person, company, headline }, traits: { ...traits, emailAddress } }
}

/** Tells whether an account was answered about a person before; the person's id. */
export type AnsweredBefore = (personId: number) => boolean

/** What the sandbox remembers of the movers `accountId` was answered about. */
export const answeredTo =
  (accounts: Pick<Accounts, 'answeredBefore'>, accountId: string): AnsweredBefore =>
  (personId) =>
    accounts.answeredBefore(accountId, personId)

/**
 * What an answer about `person` gives: the person as the world holds them, or, for a mover answered
 * before, as they moved. `mover` is the id to note as answered once the answer is given, null for
 * everyone else (only movers are remembered).
 */
export function answerAbout(
  world: World,
  share: number,
  person: Person,
  verifyCatchAll: boolean,
  answeredBefore: AnsweredBefore,
): { person: Person; traits: ContactTraits; mover: number | null; later: boolean } {
  const traits = contactTraits(world, person, verifyCatchAll)
  const kind = moveOf(world, share, person, traits)
  if (kind === null) return { person, traits, mover: null, later: false }
  if (!answeredBefore(person.id)) return { person, traits, mover: person.id, later: false }
  return { ...moved(world, person, traits, kind), mover: person.id, later: true }
}
