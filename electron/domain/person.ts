import { headerFields, type HeaderField } from './headers'
import { clean, detached, normalizeDomain } from './normalize'
import { StringSet } from './string-set'

/**
 * Who a row is: the one set of rules by which the import flags a row, the engine decides what to
 * send, and a list run finds the same person twice or in the library.
 */

/** Which input column (by index) feeds each field the service understands. */
export type ColumnMapping = Partial<Record<HeaderField, number>>

/** The fields of a row that the service can use, read from the mapped columns. */
export interface MappedFields {
  first_name?: string
  last_name?: string
  full_name?: string
  company_domain?: string
  company_name?: string
  website?: string
  email?: string
  network_url?: string
}

export const mappedFieldNames = headerFields

export type MappedField = HeaderField

/** Mail providers whose domain says nothing about the person's employer. */
const personalDomains = new Set([
  'gmail.com',
  'googlemail.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'msn.com',
  'ymail.com',
  'rocketmail.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'tutanota.com',
  'fastmail.com',
  'hey.com',
  'zoho.com',
  'mail.com',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'gmx.fr',
  'web.de',
  't-online.de',
  'freenet.de',
  'orange.fr',
  'wanadoo.fr',
  'free.fr',
  'laposte.net',
  'sfr.fr',
  'neuf.fr',
  'bbox.fr',
  'libero.it',
  'virgilio.it',
  'tiscali.it',
  'telefonica.net',
  'terra.es',
  'ziggo.nl',
  'kpnmail.nl',
  'planet.nl',
  'hetnet.nl',
  'home.nl',
  'telenet.be',
  'skynet.be',
  'bluewin.ch',
  'btinternet.com',
  'sky.com',
  'virginmedia.com',
  'comcast.net',
  'verizon.net',
  'att.net',
  'sbcglobal.net',
  'yandex.ru',
  'yandex.com',
  'mail.ru',
  'qq.com',
  '163.com',
  '126.com',
  'naver.com',
  'rediffmail.com',
  'seznam.cz',
  'wp.pl',
  'o2.pl',
  'onet.pl',
])
/** Providers with one domain per country: yahoo.fr, hotmail.co.uk, outlook.de, live.nl… */
const personalFamilies = /^(yahoo|hotmail|outlook|live|windowslive)\.[a-z]{2,3}(\.[a-z]{2})?$/

const domainPattern =
  /^(?=.{4,253}$)(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/u

export { clean, normalizeDomain }

export function isWellFormedDomain(domain: string): boolean {
  return domainPattern.test(domain)
}

export function isPersonalDomain(domain: string): boolean {
  return personalDomains.has(domain) || personalFamilies.test(domain)
}

export function normalizeNetworkUrl(value: string | undefined): string {
  const url = clean(value)
  if (!url) return ''
  return url
    .toLowerCase()
    .replace(/^https?:\/\//, '')
    .replace(/^www\./, '')
    .replace(/[?#].*$/, '')
    .replace(/\/+$/, '')
}

/** "Jane van der Berg" → first "Jane", last "van der Berg": the first word is the given name. */
export function splitFullName(full: string): { first: string; last: string } {
  const parts = clean(full).split(' ')
  return { first: parts[0] ?? '', last: parts.slice(1).join(' ') }
}

export function mappedFields(values: readonly string[], mapping: ColumnMapping): MappedFields {
  const fields: MappedFields = {}
  for (const name of mappedFieldNames) {
    const column = mapping[name]
    if (column === undefined) continue
    const value = clean(values[column])
    if (value) fields[name] = value
  }
  return fields
}

/** What the service will be asked about a row, derived the way the engine derives it. */
export interface Lead {
  first: string
  last: string
  /** The domain as written (company domain, else website, else email), normalised. */
  domain: string
  /** Which column the domain came from, to explain a personal or malformed domain. */
  domainFrom: 'company_domain' | 'website' | 'email' | null
  networkUrl: string
}

const domainSources = ['company_domain', 'website', 'email'] as const

/**
 * A pure function of a string, remembered for up to `limit` strings (all forgotten at once when
 * full): a list repeats its domains (many people to a company), and a million rows check each one's
 * domain. What is remembered is copied (`detached`), so that it does not keep the file's text alive.
 */
function remembered<T>(of: (value: string) => T, limit = 20_000): (value: string) => T {
  const known = new Map<string, T>()
  return (value) => {
    let answer = known.get(value)
    if (answer === undefined) {
      answer = of(value)
      if (typeof answer === 'string') answer = detached(answer) as T
      if (known.size >= limit) known.clear()
      known.set(detached(value), answer)
    }
    return answer
  }
}

/** `normalizeDomain` of a cell already `clean`ed. */
const domainOfCell = remembered(normalizeDomain)

export function leadOf(fields: MappedFields): Lead {
  const cleaned: MappedFields = {}
  for (const name of mappedFieldNames) {
    const value = clean(fields[name])
    if (value) cleaned[name] = value
  }
  return leadOfClean(cleaned)
}

/** The lead of a row's cells: `leadOf(mappedFields(values, mapping))`. */
export function leadOfCells(values: readonly string[], mapping: ColumnMapping): Lead {
  return leadReader(mapping)(values)
}

/**
 * `leadOfCells` for one mapping, its columns looked up once: the reader of a file's million rows.
 * Each cell the lead needs is cleaned once, and only those (a domain column past the first that
 * gives a domain is not read).
 */
export function leadReader(mapping: ColumnMapping): (values: readonly string[]) => Lead {
  const columnOf = (name: HeaderField): number => mapping[name] ?? -1
  const [firstAt, lastAt, fullAt, urlAt] = (
    ['first_name', 'last_name', 'full_name', 'network_url'] as const
  ).map(columnOf)
  const domainAt = domainSources.map(columnOf)
  return (values) => {
    const first = firstAt! < 0 ? '' : clean(values[firstAt!])
    const last = lastAt! < 0 ? '' : clean(values[lastAt!])
    return leadFrom(
      first,
      last,
      (!first || !last) && fullAt! >= 0 ? clean(values[fullAt!]) : '',
      values,
      domainAt,
      urlAt! < 0 ? '' : normalizeNetworkUrl(values[urlAt!]),
    )
  }
}

/** `leadFrom`'s domain cells when they come in `domainSources` order. */
const inOrder = domainSources.map((_, at) => at)

/** `leadOf` of fields whose values are `clean` already (as `mappedFields` makes them). */
function leadOfClean(fields: MappedFields): Lead {
  return leadFrom(
    fields.first_name ?? '',
    fields.last_name ?? '',
    fields.full_name ?? '',
    domainSources.map((source) => fields[source] ?? ''),
    inOrder,
    normalizeNetworkUrl(fields.network_url),
  )
}

/**
 * The rules of a lead, from its cleaned names (`full` needed only when a part is missing), its
 * domain cells (`cells[domainAt[i]]` for `domainSources[i]`, -1 when not mapped; cleaned here, in
 * order, until one gives a domain) and its profile URL.
 */
function leadFrom(
  first: string,
  last: string,
  full: string,
  cells: readonly (string | undefined)[],
  domainAt: readonly number[],
  networkUrl: string,
): Lead {
  if ((!first || !last) && full) {
    const split = splitFullName(full)
    if (!first && !last) {
      first = split.first
      last = split.last
    } else if (!last) {
      last = full.toLowerCase().startsWith(first.toLowerCase() + ' ') ? full.slice(first.length + 1) : ''
    } else {
      first = split.first
    }
  }
  let domain = ''
  let domainFrom: (typeof domainSources)[number] | null = null
  for (let source = 0; source < domainSources.length; source++) {
    const column = domainAt[source]!
    const cell = column < 0 ? '' : clean(cells[column])
    domain = cell ? domainOfCell(cell) : ''
    if (domain) {
      domainFrom = domainSources[source]!
      break
    }
  }
  return { first, last, domain, domainFrom, networkUrl }
}

/** What is wrong with a lead's domain, if anything: remembered by domain. */
export const domainProblem = remembered((domain: string): 'malformed_domain' | 'personal_domain' | null =>
  !isWellFormedDomain(domain) ? 'malformed_domain' : isPersonalDomain(domain) ? 'personal_domain' : null,
)

/** The library's `identity`: 'first last@domain' lower-cased, '' when a part is missing. */
export function identityOf(lead: Lead): string {
  if (!lead.first || !lead.last || !lead.domain) return ''
  return `${lead.first} ${lead.last}@${lead.domain}`.toLowerCase()
}

/** Two rows are the same person when this matches: the profile URL first, else name and domain. */
export function personKeyOf(lead: Lead): string {
  if (lead.networkUrl) return `url:${lead.networkUrl}`
  const identity = identityOf(lead)
  return identity ? `name:${identity}` : ''
}

/**
 * People seen so far, by the rule of `personKeyOf` (the profile URL first, else name and domain),
 * without making each row's key: a list checks a million rows against it.
 */
export class People {
  private readonly byUrl = new StringSet()
  private readonly byIdentity = new StringSet()

  /** Whether the lead's person was seen already; if not, it is now. A lead with no key matches nobody. */
  repeats(lead: Lead, identity = identityOf(lead)): boolean {
    if (lead.networkUrl) {
      if (this.byUrl.has(lead.networkUrl)) return true
      // A URL may be a slice of the file's text: held as it is until its set joins it, it would keep
      // that text alive.
      this.byUrl.add(detached(lead.networkUrl))
      return false
    }
    return identity !== '' && !this.byIdentity.add(identity)
  }
}

/**
 * Whether the service can be asked about this person: a profile URL, or a first name, a last name
 * and a company domain that can exist. A row that is not is never sent ("not a domain" included).
 */
export function isSendable(lead: Lead): boolean {
  if (lead.networkUrl) return true
  return Boolean(lead.first && lead.last && lead.domain && isWellFormedDomain(lead.domain))
}

/** A lead as the service receives it, minus `custom_fields`. */
export interface ServiceLead {
  first_name?: string
  last_name?: string
  company_domain?: string
  network_url?: string
}

/** What the service is sent for a sendable lead: a domain that cannot exist is left out. */
export function serviceLeadOf(lead: Lead): ServiceLead {
  const out: ServiceLead = {}
  if (lead.first) out.first_name = lead.first
  if (lead.last) out.last_name = lead.last
  if (lead.domain && isWellFormedDomain(lead.domain)) out.company_domain = lead.domain
  if (lead.networkUrl) out.network_url = `https://www.${lead.networkUrl}`
  return out
}

/** The fields of a row as the engine reads them, for a lead already worked out by these rules. */
export function serviceFieldsOf(lead: Lead): MappedFields {
  const fields: MappedFields = {}
  if (lead.first) fields.first_name = lead.first
  if (lead.last) fields.last_name = lead.last
  if (lead.domain) fields.company_domain = lead.domain
  if (lead.networkUrl) fields.network_url = lead.networkUrl
  return fields
}
