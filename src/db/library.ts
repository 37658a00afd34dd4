import type { Table } from 'dexie'
import {
  db as appDb,
  type CompanyRecord,
  type ContactRecord,
  type LeadkeeperDb,
  type Provenance,
} from './schema'

/**
 * The offline library: every person and company any list, search or lookup has found, one record
 * each, whatever shape of the service's payload brought them in.
 */

type Payload = Record<string, unknown>

function text(value: unknown): string {
  if (typeof value === 'string') return value.trim()
  if (typeof value === 'number' && Number.isFinite(value)) return String(value)
  return ''
}

/** Null, undefined, blank strings and empty arrays carry no knowledge, so they never erase any. */
function isBlank(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    (typeof value === 'string' && value.trim() === '') ||
    (Array.isArray(value) && value.length === 0)
  )
}

/** A later value replaces an earlier one only when it says something. */
export function mergeFields(known: Payload, later: Payload): Payload {
  const merged: Payload = { ...known }
  for (const [key, value] of Object.entries(later)) {
    if (!isBlank(value) || !(key in merged)) merged[key] = value
  }
  return merged
}

export function domainOf(value: unknown): string {
  let raw = text(value).toLowerCase()
  if (raw === '') return ''
  raw = raw.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^www\./, '')
  return raw.split(/[/?#:]/)[0] ?? ''
}

/**
 * Enriched lead rows and lead profiles spell `company_headquarters_*`, searches spell
 * `company_head_quarters_*`: the library keeps the search spelling so both land in one field.
 */
function canonicalKey(key: string): string {
  return key.startsWith('company_headquarters_') ? `company_head_quarters_${key.slice(21)}` : key
}

function canonical(payload: Payload): Payload {
  const out: Payload = {}
  for (const [key, value] of Object.entries(payload)) {
    if (key === 'custom_fields') continue
    out[canonicalKey(key)] = value
  }
  return out
}

export function contactIdentity(first: string, last: string, domain: string): string {
  const parts = [first, last, domain].map((part) => part.trim().toLowerCase())
  return parts.some((part) => part === '') ? '' : `${parts[0]} ${parts[1]}@${parts[2]}`
}

export type ContactFields = Omit<ContactRecord, 'sources' | 'firstSeenAt' | 'updatedAt'>

/** The contact a payload describes, or null when it names nobody. */
export function contactFromPayload(payload: Payload): ContactFields | null {
  const data = canonical(payload)
  const first = text(data['contact_first_name'])
  const last = text(data['contact_last_name'])
  const fullName = text(data['contact_full_name']) || [first, last].filter(Boolean).join(' ')
  const email = text(data['contact_email_address'])
  const companyDomain = domainOf(data['company_domain'])
  const contactId = text(data['contact_id'])
  const identity = contactIdentity(first, last, companyDomain)
  const id = contactId
    ? `c:${contactId}`
    : email
      ? `e:${email.toLowerCase()}`
      : identity
        ? `n:${identity}`
        : ''
  if (id === '') return null
  return {
    id,
    fullName,
    email,
    emailStatus: text(data['contact_email_address_status']),
    phone: text(data['contact_phone_number']),
    jobTitle: text(data['contact_job_title']),
    seniority: text(data['contact_seniority']),
    country: text(data['contact_location_country']),
    companyName: text(data['company_name']),
    companyDomain,
    networkUrl: text(data['contact_network_profile_url']),
    identity,
    nameLower: fullName.toLowerCase(),
    emailLower: email.toLowerCase(),
    domainLower: companyDomain,
    data,
  }
}

export type CompanyFields = Pick<
  CompanyRecord,
  'domain' | 'name' | 'nameLower' | 'industry' | 'country' | 'data'
>

/** The company a payload describes (its `company_*` fields only), or null without a domain. */
export function companyFromPayload(payload: Payload): CompanyFields | null {
  const data: Payload = {}
  for (const [key, value] of Object.entries(canonical(payload))) {
    if (key.startsWith('company_')) data[key] = value
  }
  const domain = domainOf(data['company_domain']) || domainOf(data['company_website'])
  if (domain === '') return null
  if (isBlank(data['company_employees_count']) && !isBlank(data['company_employees_number'])) {
    data['company_employees_count'] = data['company_employees_number']
  }
  return fieldsOfCompany(domain, data)
}

function fieldsOfCompany(domain: string, data: Payload): CompanyFields {
  const name = text(data['company_name'])
  return {
    domain,
    name,
    nameLower: name.toLowerCase(),
    industry: text(data['company_industry']),
    country: text(data['company_head_quarters_country']) || text(data['company_address_country']),
    data,
  }
}

function withSource(sources: Provenance[], source: Provenance): Provenance[] {
  return sources.some((known) => known.kind === source.kind && known.id === source.id)
    ? sources
    : [...sources, source]
}

function mergeContact(
  known: ContactRecord | undefined,
  next: ContactFields,
  source: Provenance,
): ContactRecord {
  if (!known) return { ...next, sources: [source], firstSeenAt: source.at, updatedAt: source.at }
  const data = mergeFields(known.data, next.data)
  const merged = contactFromPayload(data) ?? next
  return {
    ...merged,
    id: known.id,
    sources: withSource(known.sources, source),
    firstSeenAt: known.firstSeenAt,
    updatedAt: Math.max(known.updatedAt, source.at),
  }
}

/**
 * A payload without a contact id may describe someone already known under another key (a list
 * found them by id, a lookup brings only their name): find them by email, then by name and domain.
 */
async function existingContactId(database: LeadkeeperDb, fields: ContactFields): Promise<string> {
  if (await database.contacts.get(fields.id)) return fields.id
  if (fields.emailLower) {
    const byEmail = await database.contacts.where('emailLower').equals(fields.emailLower).first()
    if (byEmail) return byEmail.id
  }
  if (fields.identity) {
    const byName = await database.contacts.where('identity').equals(fields.identity).first()
    if (byName) return byName.id
  }
  return fields.id
}

/**
 * Stores the people of any service payload; returns, per payload, the id of its library contact
 * (null when the payload names nobody). One transaction for the whole batch.
 */
export async function upsertContacts(
  payloads: Payload[],
  source: Provenance,
  database: LeadkeeperDb = appDb,
): Promise<(string | null)[]> {
  return database.transaction('rw', database.contacts, async () => {
    const fields = payloads.map(contactFromPayload)
    const ids: (string | null)[] = []
    for (const one of fields) {
      if (!one) ids.push(null)
      else ids.push(one.id.startsWith('c:') ? one.id : await existingContactId(database, one))
    }
    const unique = [...new Set(ids.filter((id): id is string => id !== null))]
    const known = new Map<string, ContactRecord>()
    for (const record of await database.contacts.bulkGet(unique)) if (record) known.set(record.id, record)
    fields.forEach((one, at) => {
      const id = ids[at]
      if (!one || !id) return
      known.set(id, mergeContact(known.get(id), { ...one, id }, source))
    })
    await database.contacts.bulkPut(unique.map((id) => known.get(id)!))
    return ids
  })
}

/** Stores the companies of any service payload, merged by lower-case domain; returns their domains. */
export async function upsertCompanies(
  payloads: Payload[],
  source: Provenance,
  database: LeadkeeperDb = appDb,
): Promise<(string | null)[]> {
  return database.transaction('rw', database.companies, async () => {
    const fields = payloads.map(companyFromPayload)
    const domains = fields.map((one) => one?.domain ?? null)
    const unique = [...new Set(domains.filter((domain): domain is string => domain !== null))]
    const known = new Map<string, CompanyRecord>()
    for (const record of await database.companies.bulkGet(unique))
      if (record) known.set(record.domain, record)
    for (const one of fields) {
      if (!one) continue
      const before = known.get(one.domain)
      if (!before) {
        known.set(one.domain, { ...one, sources: [source], firstSeenAt: source.at, updatedAt: source.at })
        continue
      }
      known.set(one.domain, {
        ...fieldsOfCompany(one.domain, mergeFields(before.data, one.data)),
        sources: withSource(before.sources, source),
        firstSeenAt: before.firstSeenAt,
        updatedAt: Math.max(before.updatedAt, source.at),
      })
    }
    await database.companies.bulkPut(unique.map((domain) => known.get(domain)!))
    return domains
  })
}

export type ContactFacet = 'emailStatus' | 'seniority' | 'country'
export type CompanyFacet = 'industry' | 'country'

export interface LibrarySearch<F extends string> {
  /** Matched from the start of a name, an email or a domain, case-insensitive. */
  prefix?: string
  facets?: Partial<Record<F, string[]>>
  limit?: number
  /** The last id (contacts) or domain (companies) of the previous page. */
  after?: string
}

export interface LibraryPage<T> {
  items: T[]
  total: number
  /** Pass as `after` for the next page; null on the last one. */
  next: string | null
}

export interface FacetCount {
  value: string
  count: number
}

function activeFacets<F extends string>(facets: Partial<Record<F, string[]>> | undefined): [F, string[]][] {
  return Object.entries(facets ?? {}).filter(
    (entry): entry is [F, string[]] => Array.isArray(entry[1]) && entry[1].length > 0,
  )
}

/**
 * Every key matching a search, sorted. Keys are small strings, so even a large library fits; the
 * records themselves are read a page at a time.
 */
async function matchKeys<T, I, F extends string>(
  table: Table<T, string, I>,
  prefixIndexes: string[],
  search: Omit<LibrarySearch<F>, 'limit' | 'after'>,
): Promise<string[]> {
  const prefix = (search.prefix ?? '').trim().toLowerCase()
  const facets = activeFacets(search.facets)
  const matchesFacets = (record: T) =>
    facets.every(([field, values]) => values.includes(String((record as Record<string, unknown>)[field])))
  let collection
  if (prefix !== '') {
    // One key range per index, read as keys and united here: Dexie's or() walks cursors and is
    // 20 to 40 times slower on a large library (measured by the library bench).
    const parts = await Promise.all(
      prefixIndexes.map((index) =>
        table
          .where(index)
          .between(prefix, prefix + '\uffff', true, true)
          .primaryKeys(),
      ),
    )
    const keys = [...new Set(parts.flat() as string[])].sort()
    if (facets.length === 0) return keys
    const records = await table.bulkGet(keys)
    return keys.filter((_key, at) => {
      const record = records[at]
      return record !== undefined && matchesFacets(record)
    })
  } else if (facets.length > 0) {
    const [[field, values], ...rest] = facets as [[F, string[]], ...[F, string[]][]]
    collection = table.where(field).anyOf(values)
    if (rest.length > 0) collection = collection.and(matchesFacets)
  } else {
    return (await table.toCollection().primaryKeys()) as string[]
  }
  const keys = (await collection.primaryKeys()) as string[]
  return [...new Set(keys)].sort()
}

async function pageOf<T, I, F extends string>(
  table: Table<T, string, I>,
  keys: string[],
  search: LibrarySearch<F>,
): Promise<LibraryPage<T>> {
  const limit = search.limit ?? 100
  const start = search.after === undefined ? 0 : keys.findIndex((key) => key > search.after!)
  const slice = start < 0 ? [] : keys.slice(start, start + limit)
  const items = (await table.bulkGet(slice)).filter((item): item is T => item !== undefined)
  const last = slice[slice.length - 1]
  return { items, total: keys.length, next: start >= 0 && start + limit < keys.length && last ? last : null }
}

export function matchContactIds(
  search: Omit<LibrarySearch<ContactFacet>, 'limit' | 'after'>,
  database: LeadkeeperDb = appDb,
): Promise<string[]> {
  return matchKeys(database.contacts, ['nameLower', 'emailLower', 'domainLower'], search)
}

export function matchCompanyDomains(
  search: Omit<LibrarySearch<CompanyFacet>, 'limit' | 'after'>,
  database: LeadkeeperDb = appDb,
): Promise<string[]> {
  return matchKeys(database.companies, ['nameLower', 'domain'], search)
}

export async function searchContacts(
  search: LibrarySearch<ContactFacet>,
  database: LeadkeeperDb = appDb,
): Promise<LibraryPage<ContactRecord>> {
  return pageOf(database.contacts, await matchContactIds(search, database), search)
}

export async function searchCompanies(
  search: LibrarySearch<CompanyFacet>,
  database: LeadkeeperDb = appDb,
): Promise<LibraryPage<CompanyRecord>> {
  return pageOf(database.companies, await matchCompanyDomains(search, database), search)
}

/** Counts per value of one indexed field, from the index alone, most frequent first. */
export async function indexCounts<T, I>(table: Table<T, string, I>, index: string): Promise<FacetCount[]> {
  const values = (await table.orderBy(index).uniqueKeys()) as string[]
  const counts = await Promise.all(
    values.map(async (value) => ({ value, count: await table.where(index).equals(value).count() })),
  )
  return counts.sort((a, b) => b.count - a.count || a.value.localeCompare(b.value))
}

export async function contactFacetCounts(
  database: LeadkeeperDb = appDb,
): Promise<Record<ContactFacet, FacetCount[]>> {
  const [emailStatus, seniority, country] = await Promise.all(
    (['emailStatus', 'seniority', 'country'] as const).map((index) => indexCounts(database.contacts, index)),
  )
  return { emailStatus: emailStatus!, seniority: seniority!, country: country! }
}

export async function companyFacetCounts(
  database: LeadkeeperDb = appDb,
): Promise<Record<CompanyFacet, FacetCount[]>> {
  const [industry, country] = await Promise.all(
    (['industry', 'country'] as const).map((index) => indexCounts(database.companies, index)),
  )
  return { industry: industry!, country: country! }
}
