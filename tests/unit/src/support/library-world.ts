import { upsertCompanies, upsertContacts } from '@/db/library-ingest'
import { appendRows, createList, finishImport } from '@/db/lists'
import { applyResultBatches } from '@/db/rows'
import { storeResults } from '@/db/searches'
import { rowKey, type LeadkeeperDb } from '@/db/schema'
import type { ResultRow } from '@shared/contract'

/**
 * A library as the app fills it, for the tests of what leaves it (export, a list made of it, a
 * forget): a list "Fair" of `people` rows, each answered by a run (emails; phones too on even rows
 * and Ada's) so that its person is filed; Ada Lovelace (row 3) answered again on "Second" (a list of
 * her alone) and found by a lead search; two people a lead search found without a run (one with an
 * email and a phone, one with neither); companies of a company search.
 */

export const ada = {
  row: 3,
  id: 'c:1003',
  fullName: 'Ada Lovelace',
  email: 'ada.lovelace@engines.io',
  phone: '+44 20 7946 0003',
  networkUrl: 'https://network.example/in/ada-lovelace-1815',
}

const countries = ['France', 'Spain', 'United Kingdom']

/** The service's payload of person `index` of the world. */
export function personPayload(index: number): Record<string, unknown> {
  const isAda = index === ada.row
  return {
    enriched: true,
    contact_id: 1000 + index,
    contact_first_name: isAda ? 'Ada' : `First${index}`,
    contact_last_name: isAda ? 'Lovelace' : `Last${index}`,
    contact_full_name: isAda ? ada.fullName : `First${index} Last${index}`,
    contact_email_address: isAda ? ada.email : `p${index}@d${index % 4}.com`,
    contact_email_address_status: index % 2 ? 'catch_all' : 'deliverable',
    contact_job_title: isAda ? 'Analyst of engines' : 'Buyer',
    contact_seniority: 'manager',
    contact_location_country: countries[index % 3],
    contact_network_profile_url: isAda ? ada.networkUrl : '',
    contact_phone_number: isAda ? ada.phone : index % 2 ? null : `+33 1 00 00 ${index}`,
    company_name: isAda ? 'Engines' : `Co${index % 4}`,
    company_domain: isAda ? 'engines.io' : `d${index % 4}.com`,
  }
}

/** The cells a row of "Fair" was imported with: first and last name, company domain, a note. */
export const fairCells = (index: number) => {
  const payload = personPayload(index)
  return [
    String(payload['contact_first_name']),
    String(payload['contact_last_name']),
    String(payload['company_domain']),
    `note ${index}`,
  ]
}

async function answeredList(
  database: LeadkeeperDb,
  name: string,
  people: readonly number[],
  at: number,
): Promise<string> {
  const list = await createList(
    {
      name,
      source: { fileName: `${name}.csv`, size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
      columns: ['First name', 'Last name', 'Company domain', 'Notes'],
      mapping: { first_name: 0, last_name: 1, company_domain: 2 },
    },
    database,
  )
  await appendRows(list.id, 0, people.map(fairCells), undefined, undefined, database)
  await finishImport(list.id, people.length, 0, database)
  const rows: ResultRow[] = people.map((person, index) => ({
    key: rowKey(list.id, index),
    status: 'found',
    kinds: person % 2 && person !== ada.row ? ['email'] : ['email', 'phone'],
    data: personPayload(person),
  }))
  await applyResultBatches(list.id, [{ rows, at }], database)
  return list.id
}

export async function libraryWorld(database: LeadkeeperDb, people = 12) {
  const fair = await answeredList(
    database,
    'Fair',
    Array.from({ length: people }, (_, i) => i),
    1_000,
  )
  const second = await answeredList(database, 'Second', [ada.row], 2_000)
  const {
    contact_email_address: _email,
    contact_email_address_status: _status,
    contact_phone_number: _phone,
    ...unreached
  } = personPayload(101)
  const searched = [personPayload(ada.row), personPayload(100), unreached]
  await storeResults(
    database,
    'lead-run',
    'lead',
    searched.map((data, at) => ({ key: `k${at}`, data })),
  )
  await upsertContacts(
    searched.slice(1),
    { kind: 'lead_search', id: 'lead-run', label: 'Buyers', at: 3_000 },
    database,
  )
  const companies = ['Zeta', 'Alpha', 'Mu'].map((name, at) => ({
    company_name: name,
    company_domain: `${name.toLowerCase()}.example`,
    company_industry: at === 1 ? 'Retail' : 'Software',
    company_head_quarters_country: 'France',
    company_employees_count: 10 + at,
  }))
  await storeResults(
    database,
    'company-run',
    'company',
    companies.map((data, at) => ({ key: `c${at}`, data })),
  )
  await upsertCompanies(
    companies,
    { kind: 'company_search', id: 'company-run', label: 'Makers', at: 4_000 },
    database,
  )
  return { fair, second }
}

/** Every string of every record and key of every store of the database, with where it was. */
export async function everyString(database: LeadkeeperDb): Promise<{ table: string; text: string }[]> {
  const found: { table: string; text: string }[] = []
  const walk = (table: string, value: unknown, seen: Set<unknown>): void => {
    if (typeof value === 'string') found.push({ table, text: value })
    else if (value && typeof value === 'object' && !seen.has(value)) {
      seen.add(value)
      if (ArrayBuffer.isView(value)) return
      for (const inner of Object.values(value)) walk(table, inner, seen)
    }
  }
  for (const table of database.tables) {
    const seen = new Set<unknown>()
    walk(table.name, await table.toCollection().primaryKeys(), seen)
    walk(table.name, await table.toArray(), seen)
  }
  return found
}
