import Dexie from 'dexie'
import type { Answers, DataKind } from '@domain/kinds'
import { isBlank } from '@domain/row'
import { contactBlockOf, contactBlockSize, contactKeys, type ContactIndex } from './contact-index'
import { addCounts } from './counts'
import { contactIndex, contactTables, pageTurn, readContactBlocks, writeContacts } from './library-contacts'
import { companyWords, contactAnswers, contactWords, LibraryTally } from './library-shape'
import { db as appDb, type LeadkeeperDb } from './schema'
import type { CompanyRecord, ContactBlock, ContactChange, ContactRecord, Provenance } from './records'
import { fold } from './words'
import { nextTurn } from './turns'

/**
 * The offline library's ingest: every person and company any list, search or lookup has found, one
 * record each (people in blocks, `library-contacts.ts`), whatever shape of the service's payload
 * brought them in, merged with what is known and counted in the same transaction. Searching it is
 * `library-query.ts`.
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
  // Own keys only (a payload is a plain object), without the pairs `Object.entries` would make.
  for (const key of Object.keys(payload)) {
    if (key === 'custom_fields') continue
    out[canonicalKey(key)] = payload[key]
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
    words: contactWords({ fullName, email, companyDomain, data }),
  }
}

export type CompanyFields = Pick<
  CompanyRecord,
  'domain' | 'name' | 'nameLower' | 'words' | 'industry' | 'country' | 'data'
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
    words: companyWords({ name, domain }),
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
 * What a later answer changes in what was held of a person: a company at another domain, another job
 * title, another email. A value one of them lacks is no change (a thin payload says nothing of it).
 */
export function changesOf(
  known: Pick<ContactRecord, 'companyName' | 'domainLower' | 'jobTitle' | 'email' | 'emailLower'>,
  next: Pick<ContactRecord, 'companyName' | 'domainLower' | 'jobTitle' | 'email' | 'emailLower'>,
  at: number,
): ContactChange[] {
  const changes: ContactChange[] = []
  const differ = (a: string, b: string) => a.trim() !== '' && b.trim() !== '' && fold(a) !== fold(b)
  if (differ(known.domainLower, next.domainLower))
    changes.push({
      field: 'company',
      from: known.companyName || known.domainLower,
      to: next.companyName || next.domainLower,
      at,
    })
  if (differ(known.jobTitle, next.jobTitle))
    changes.push({ field: 'jobTitle', from: known.jobTitle, to: next.jobTitle, at })
  if (differ(known.emailLower, next.emailLower))
    changes.push({ field: 'email', from: known.email, to: next.email, at })
  return changes
}

function mergeContact(
  known: ContactRecord | undefined,
  next: ContactFields,
  source: Provenance,
  kinds: readonly DataKind[],
): ContactRecord {
  // Only a list run says what it answered; anything else leaves the record's answers as they were.
  let answers: { answers?: Answers } = known?.answers ? { answers: known.answers } : {}
  if (kinds.length > 0) {
    const answered: Answers = known ? { ...contactAnswers(known) } : {}
    for (const kind of kinds) answered[kind] = Math.max(answered[kind] ?? 0, source.at)
    answers = { answers: answered }
  }
  if (!known)
    return {
      ...next,
      changed: '',
      sources: [source],
      firstSeenAt: source.at,
      updatedAt: source.at,
      ...answers,
    }
  const data = mergeFields(known.data, next.data)
  const merged = contactFromPayload(data) ?? next
  const changed = changesOf(known, merged, source.at)
  return {
    ...merged,
    ...(known.changes || changed.length > 0 ? { changes: [...(known.changes ?? []), ...changed] } : {}),
    changed: changed.length > 0 ? 'changed' : '',
    id: known.id,
    sources: withSource(known.sources, source),
    firstSeenAt: known.firstSeenAt,
    updatedAt: Math.max(known.updatedAt, source.at),
    ...answers,
  }
}

/**
 * Finds the record a payload's person already has, under whatever key they were first stored: by
 * the payload's key, then by contact id (kept among a record's words, so a person first stored by
 * name and domain and later found with an id stays one record), by email, then by name and domain.
 * A batch reads only the blocks of the people its keys may name (`contact-index.ts`); records made
 * or changed by the batch are found by the payloads after them (`remember`).
 */
class ContactFinder {
  /** Records by their contact-id words ('c:…'), and by email: what `idOf` looks a payload up by. */
  private readonly byIdWord = new Map<string, ContactRecord[]>()
  private readonly byEmail = new Map<string, ContactRecord[]>()
  private readonly byIdentity = new Map<string, ContactRecord[]>()
  private readonly byKey = new Map<string, ContactRecord>()
  /** The slot of each person the library held before the batch. */
  readonly slots = new Map<string, number>()

  static async load(
    database: LeadkeeperDb,
    index: ContactIndex,
    fields: ContactFields[],
  ): Promise<{ finder: ContactFinder; blocks: Map<number, ContactBlock> }> {
    const finder = new ContactFinder()
    const slots = new Set<number>()
    for (let at = 0; at < fields.length; at++) {
      if (at > 0 && at % keyedPerTurn === 0) await pageTurn(database)
      for (const key of contactKeys(fields[at]!))
        for (const slot of index.candidates(key)) if (index.mayHold(slot, key)) slots.add(slot)
    }
    // The last block too: new people go there first.
    const tail = index.size > 0 ? [contactBlockOf(index.size - 1)] : []
    const blocks = await readContactBlocks(database, [...[...slots].map(contactBlockOf), ...tail])
    for (const slot of slots) {
      const record = blocks.get(contactBlockOf(slot))?.contacts[slot % contactBlockSize]
      if (!record || index.idAt(slot) !== record.id) continue
      finder.slots.set(record.id, slot)
      finder.remember(record)
    }
    return { finder, blocks }
  }

  get(id: string): ContactRecord | undefined {
    return this.byKey.get(id)
  }

  remember(record: ContactRecord): void {
    this.byKey.set(record.id, record)
    for (const word of record.words ?? []) if (word.startsWith('c:')) push(this.byIdWord, word, record)
    if (record.emailLower) push(this.byEmail, record.emailLower, record)
    if (record.identity) push(this.byIdentity, record.identity, record)
  }

  idOf(fields: ContactFields): string {
    if (this.byKey.has(fields.id)) return fields.id
    const idWord = fields.id.startsWith('c:') ? fold(fields.id) : null
    // A person with a contact id joins a record by email or name only if it has no id of its own:
    // two ids are two people, whatever they share.
    const joinable = (contact: ContactRecord) =>
      !idWord || !contact.words.some((word) => word.startsWith('c:'))
    const first = (candidates: ContactRecord[] | undefined, keep: (contact: ContactRecord) => boolean) =>
      candidates
        ?.filter((contact) => this.byKey.get(contact.id) === contact && keep(contact))
        .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))[0]
    const found =
      (idWord ? first(this.byIdWord.get(idWord), () => true) : undefined) ??
      (fields.emailLower ? first(this.byEmail.get(fields.emailLower), joinable) : undefined) ??
      (fields.identity ? first(this.byIdentity.get(fields.identity), joinable) : undefined)
    return found?.id ?? fields.id
  }
}

/**
 * Payloads keyed or merged between two turns of the page inside the write's transaction: a large
 * batch merged in one go holds the page (`npm run bench -- --only library`, its longest task).
 */
const keyedPerTurn = 2_000
const mergedPerTurn = 1_000

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const known = map.get(key)
  if (known) known.push(value)
  else map.set(key, [value])
}

/** Payloads read per slice by `contactsOf` before the page gets a turn: ten milliseconds or so. */
const payloadsPerSlice = 1_000

/**
 * The people of service payloads (null where one names nobody), read a slice at a time with a
 * turn for the page between: outside any transaction, which a turn would end.
 */
export async function contactsOf(payloads: readonly Payload[]): Promise<(ContactFields | null)[]> {
  const fields: (ContactFields | null)[] = []
  for (let start = 0; start < payloads.length; start += payloadsPerSlice) {
    if (start > 0) await nextTurn()
    for (const payload of payloads.slice(start, start + payloadsPerSlice))
      fields.push(contactFromPayload(payload))
  }
  return fields
}

/**
 * Stores the people of any service payload; returns, per payload, the id of its library contact
 * (null when the payload names nobody). One transaction for the whole batch, counts included: a
 * person already known keeps their slot, a new one takes the next. Inside a caller's transaction,
 * read the payloads first with `contactsOf` and pass them as `read`.
 */
export async function upsertContacts(
  payloads: Payload[],
  source: Provenance,
  database: LeadkeeperDb = appDb,
  /** Per payload, the kinds of data it answers (a list run's); searches and lookups answer none. */
  kinds: readonly (readonly DataKind[])[] = [],
  read?: readonly (ContactFields | null)[],
): Promise<(string | null)[]> {
  const fields =
    read ?? (Dexie.currentTransaction ? payloads.map(contactFromPayload) : await contactsOf(payloads))
  return database.transaction('rw', [...contactTables(database), database.libraryCounts], async () => {
    const index = await contactIndex(database)
    const { finder, blocks } = await ContactFinder.load(
      database,
      index,
      fields.filter((one): one is ContactFields => one !== null),
    )
    const before = new Map<string, ContactRecord>()
    const after = new Map<string, ContactRecord>()
    const ids: (string | null)[] = []
    for (let at = 0; at < fields.length; at++) {
      if (at > 0 && at % mergedPerTurn === 0) await pageTurn(database)
      const one = fields[at]
      if (!one) {
        ids.push(null)
        continue
      }
      const id = finder.idOf(one)
      const known = finder.get(id)
      if (known && !after.has(id)) before.set(id, known)
      const merged = mergeContact(known, one.id === id ? one : { ...one, id }, source, kinds[at] ?? [])
      finder.remember(merged)
      after.set(id, merged)
      ids.push(id)
    }
    const tally = new LibraryTally()
    const bySlot = new Map<number, ContactRecord>()
    let next = index.size
    for (const [id, record] of after) {
      const old = before.get(id)
      if (old) tally.contact(old, -1)
      tally.contact(record, 1)
      bySlot.set(finder.slots.get(id) ?? next++, record)
    }
    await writeContacts(database, index, bySlot, blocks)
    await addCounts(database.libraryCounts, tally)
    return ids
  })
}

/** When each field was last given a value: the fields a payload says something in, at `at`. */
function answeredFields(known: Record<string, number>, data: Payload, at: number): Record<string, number> {
  const fieldsAt = { ...known }
  for (const [key, value] of Object.entries(data))
    if (!isBlank(value)) fieldsAt[key] = Math.max(fieldsAt[key] ?? 0, at)
  return fieldsAt
}

/** Stores the companies of any service payload, merged by lower-case domain; returns their domains. */
export async function upsertCompanies(
  payloads: Payload[],
  source: Provenance,
  database: LeadkeeperDb = appDb,
): Promise<(string | null)[]> {
  return database.transaction('rw', [database.companies, database.libraryCounts], async () => {
    const fields = payloads.map(companyFromPayload)
    const domains = fields.map((one) => one?.domain ?? null)
    const unique = [...new Set(domains.filter((domain): domain is string => domain !== null))]
    const before = new Map<string, CompanyRecord>()
    for (const record of await database.companies.bulkGet(unique))
      if (record) before.set(record.domain, record)
    const known = new Map(before)
    for (const one of fields) {
      if (!one) continue
      const before = known.get(one.domain)
      const fieldsAt = answeredFields(before?.fieldsAt ?? {}, one.data, source.at)
      if (!before) {
        known.set(one.domain, {
          ...one,
          fieldsAt,
          sources: [source],
          firstSeenAt: source.at,
          updatedAt: source.at,
        })
        continue
      }
      known.set(one.domain, {
        ...fieldsOfCompany(one.domain, mergeFields(before.data, one.data)),
        fieldsAt,
        sources: withSource(before.sources, source),
        firstSeenAt: before.firstSeenAt,
        updatedAt: Math.max(before.updatedAt, source.at),
      })
    }
    const tally = new LibraryTally()
    for (const domain of unique) {
      const old = before.get(domain)
      if (old) tally.company(old, -1)
      tally.company(known.get(domain)!, 1)
    }
    await database.companies.bulkPut(unique.map((domain) => known.get(domain)!))
    await addCounts(database.libraryCounts, tally)
    return domains
  })
}
