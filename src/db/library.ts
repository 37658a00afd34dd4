import type { Table } from 'dexie'
import type { Answers, DataKind } from '@domain/kinds'
import { isBlank } from '@domain/row'
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

/** A library record's payload in the spelling of an enriched lead row, to put on a list row. */
export function asEnrichedRow(payload: Payload): Payload {
  const out: Payload = {}
  for (const [key, value] of Object.entries(payload)) {
    out[key.startsWith('company_head_quarters_') ? `company_headquarters_${key.slice(22)}` : key] = value
  }
  return out
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

/**
 * When each kind of data was answered for this person. Records written before answers were kept
 * tell it by what they hold: an email or its status, a phone, as of their last update.
 */
export function contactAnswers(contact: ContactRecord): Answers {
  if (contact.answers) return contact.answers
  const answers: Answers = {}
  if (contact.email || contact.emailStatus) answers.email = contact.updatedAt
  if (contact.phone) answers.phone = contact.updatedAt
  return answers
}

function mergeContact(
  known: ContactRecord | undefined,
  next: ContactFields,
  source: Provenance,
  kinds: readonly DataKind[],
): ContactRecord {
  // Only a list run says what it answered; anything else leaves the record's answers as they were.
  let answers = {}
  if (kinds.length > 0) {
    const answered: Answers = known ? { ...contactAnswers(known) } : {}
    for (const kind of kinds) answered[kind] = Math.max(answered[kind] ?? 0, source.at)
    answers = { answers: answered }
  }
  if (!known) return { ...next, sources: [source], firstSeenAt: source.at, updatedAt: source.at, ...answers }
  const data = mergeFields(known.data, next.data)
  const merged = contactFromPayload(data) ?? next
  return {
    ...merged,
    id: known.id,
    sources: withSource(known.sources, source),
    firstSeenAt: known.firstSeenAt,
    updatedAt: Math.max(known.updatedAt, source.at),
    ...answers,
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
  /** Per payload, the kinds of data it answers (a list run's); searches and lookups answer none. */
  kinds: readonly (readonly DataKind[])[] = [],
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
      known.set(id, mergeContact(known.get(id), { ...one, id }, source, kinds[at] ?? []))
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
}

export interface LibraryPage<T> {
  /** The first matches, in the order of `matchContactIds` / `matchCompanyDomains`. */
  items: T[]
  /** How many matches are known: all of them when `exact`, otherwise at least this many. */
  total: number
  /** True when `items` holds every match. */
  exact: boolean
}

export interface FacetCount {
  value: string
  count: number
}

/** The first page walks at most this many records per index before leaving the rest to `match*`. */
const firstPageReadCap = 4_000

type Fields = Record<string, unknown>

/**
 * How a search reads a table. The matches are ordered by section: first the records whose first
 * prefix index (the name) matches, in that index's order, then those matched only by the second
 * index, and so on; within a section by index value, then primary key, as IndexedDB returns them.
 * So the first page comes from short walks of the indexes and equals the start of the full set.
 * Without a prefix there is one section: the whole name index (every record has a name, maybe '').
 */
interface Plan<T, I, F extends string> {
  table: Table<T, string, I>
  indexes: string[]
  prefix: string
  facets: [F, string[]][]
}

function criteriaOf<F extends string>(search: LibrarySearch<F>): { prefix: string; facets: [F, string[]][] } {
  const facets = Object.entries(search.facets ?? {}).filter(
    (entry): entry is [F, string[]] => Array.isArray(entry[1]) && entry[1].length > 0,
  )
  return { prefix: (search.prefix ?? '').trim().toLowerCase(), facets }
}

function planOf<T, I, F extends string>(
  table: Table<T, string, I>,
  prefixIndexes: string[],
  search: LibrarySearch<F>,
): Plan<T, I, F> {
  const { prefix, facets } = criteriaOf(search)
  return { table, indexes: prefix === '' ? prefixIndexes.slice(0, 1) : prefixIndexes, prefix, facets }
}

/** True when a search has neither prefix nor facet: it matches the whole library. */
export function isEverything<F extends string>(search: LibrarySearch<F>): boolean {
  const { prefix, facets } = criteriaOf(search)
  return prefix === '' && facets.length === 0
}

/** The same bounds as the index ranges below, so a record's section agrees with the walks. */
function inRange(value: unknown, prefix: string): boolean {
  return typeof value === 'string' && value >= prefix && value <= prefix + '\uffff'
}

function sectionRange<T, I, F extends string>(plan: Plan<T, I, F>, index: string) {
  return plan.prefix === ''
    ? plan.table.orderBy(index)
    : plan.table.where(index).between(plan.prefix, plan.prefix + '\uffff', true, true)
}

/** The section a record belongs to: the first index whose value matches the prefix. */
function sectionOf<T, I, F extends string>(plan: Plan<T, I, F>, record: T): number {
  if (plan.prefix === '') return 0
  return plan.indexes.findIndex((index) => inRange((record as Fields)[index], plan.prefix))
}

function matchesFacets<T, I, F extends string>(plan: Plan<T, I, F>, record: T): boolean {
  return plan.facets.every(([field, values]) => values.includes(String((record as Fields)[field])))
}

/**
 * The first `limit` matches, from walks of the indexes in key order that stop once enough are
 * found: a broad prefix over a million records reads a few hundred of them. Facets filter the
 * records walked; a rare facet value may need more than `firstPageReadCap` records per section, and
 * then the page holds what was found so far (not exact) and the rest comes from `matchKeys`.
 */
async function firstMatches<T, I, F extends string>(
  plan: Plan<T, I, F>,
  limit: number,
): Promise<LibraryPage<T>> {
  // One more than asked, to know whether the page holds every match.
  const wanted = limit + 1
  const items: T[] = []
  for (const [section, index] of plan.indexes.entries()) {
    let read = wanted
    for (;;) {
      const records = await sectionRange(plan, index).limit(read).toArray()
      const kept = records.filter(
        (record) => sectionOf(plan, record) === section && matchesFacets(plan, record),
      )
      const missing = wanted - items.length
      if (kept.length >= missing) {
        items.push(...kept.slice(0, missing))
        const page = items.slice(0, limit)
        return { items: page, total: page.length, exact: items.length <= limit }
      }
      if (records.length < read) {
        items.push(...kept)
        break
      }
      if (read >= firstPageReadCap) {
        items.push(...kept)
        return { items, total: items.length, exact: false }
      }
      read = Math.min(read * 4, firstPageReadCap)
    }
  }
  return { items, total: items.length, exact: true }
}

/** The primary keys holding any of the values of one facet, from its index. */
async function facetKeys<T, I>(
  table: Table<T, string, I>,
  field: string,
  values: string[],
): Promise<Set<string>> {
  const parts = await Promise.all(values.map((value) => table.where(field).equals(value).primaryKeys()))
  return new Set(parts.flat())
}

/**
 * Every match, in the plan's order. Each section is one key range read with getAllKeys; facets are
 * key sets read from their indexes, so no record is read. Keys are small strings: even a large
 * library fits, and the records are read a page at a time.
 */
async function matchKeys<T, I, F extends string>(plan: Plan<T, I, F>): Promise<string[]> {
  const [sections, facetSets] = await Promise.all([
    Promise.all(plan.indexes.map((index) => sectionRange(plan, index).primaryKeys())),
    Promise.all(plan.facets.map(([field, values]) => facetKeys(plan.table, field, values))),
  ])
  let keys = sections[0] ?? []
  if (sections.length > 1) {
    const seen = new Set<string>()
    keys = []
    for (const section of sections) {
      for (const key of section) {
        if (seen.has(key)) continue
        seen.add(key)
        keys.push(key)
      }
    }
  }
  return facetSets.length === 0 ? keys : keys.filter((key) => facetSets.every((set) => set.has(key)))
}

/** Reads of one search see one state of the table. */
function reading<T, I, R>(table: Table<T, string, I>, work: () => Promise<R>): Promise<R> {
  return table.db.transaction('r', table, work)
}

const contactIndexes = ['nameLower', 'emailLower', 'domainLower']
const companyIndexes = ['nameLower', 'domain']

function contactPlan(search: LibrarySearch<ContactFacet>, database: LeadkeeperDb) {
  return planOf(database.contacts, contactIndexes, search)
}

function companyPlan(search: LibrarySearch<CompanyFacet>, database: LeadkeeperDb) {
  return planOf(database.companies, companyIndexes, search)
}

/** The first `limit` contacts matching a search (100 by default), fast on any library size. */
export function searchContacts(
  search: LibrarySearch<ContactFacet> & { limit?: number },
  database: LeadkeeperDb = appDb,
): Promise<LibraryPage<ContactRecord>> {
  const plan = contactPlan(search, database)
  return reading(plan.table, () => firstMatches(plan, search.limit ?? 100))
}

/** The first `limit` companies matching a search (100 by default). */
export function searchCompanies(
  search: LibrarySearch<CompanyFacet> & { limit?: number },
  database: LeadkeeperDb = appDb,
): Promise<LibraryPage<CompanyRecord>> {
  const plan = companyPlan(search, database)
  return reading(plan.table, () => firstMatches(plan, search.limit ?? 100))
}

/** The ids of every matching contact, in the order `searchContacts` pages them. */
export function matchContactIds(
  search: LibrarySearch<ContactFacet>,
  database: LeadkeeperDb = appDb,
): Promise<string[]> {
  const plan = contactPlan(search, database)
  return reading(plan.table, () => matchKeys(plan))
}

/** The domains of every matching company, in the order `searchCompanies` pages them. */
export function matchCompanyDomains(
  search: LibrarySearch<CompanyFacet>,
  database: LeadkeeperDb = appDb,
): Promise<string[]> {
  const plan = companyPlan(search, database)
  return reading(plan.table, () => matchKeys(plan))
}

/**
 * Records `start` to `start + count` of the whole library in the order of an empty search, by
 * position (the index's cursor skips ahead natively): browsing everything needs no key list.
 */
export function contactsAt(start: number, count: number, database: LeadkeeperDb = appDb) {
  return database.contacts.orderBy(contactIndexes[0]!).offset(start).limit(count).toArray()
}

export function companiesAt(start: number, count: number, database: LeadkeeperDb = appDb) {
  return database.companies.orderBy(companyIndexes[0]!).offset(start).limit(count).toArray()
}

/**
 * Counts per value of one indexed field, from the index alone, most frequent first: one native
 * count per distinct value, so its cost grows with the records, not with JavaScript callbacks.
 */
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
