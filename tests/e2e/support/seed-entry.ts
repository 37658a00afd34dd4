// Bundled by `seedDatabase` (tests/e2e/pages/library.ts: esbuild, IIFE) and run in a page of the app's
// origin: the app's own list and library functions write the data a test starts from, as an import
// and a run would.
import { appendRows, createList as createEmptyList, finishImport } from '../../../src/db/lists'
import { upsertCompanies } from '../../../src/db/library-ingest'
import { applyResultBatches } from '../../../src/db/rows'
import { LeadkeeperDb, rowKey } from '../../../src/db/schema'
import type { ResultRow } from '../../../electron/domain/jobs'
import type { Provenance } from '../../../src/db/records'

export interface TradeFairSeed {
  /** Rows of the list "Trade fair 2026". */
  rows: number
  /** Rows with an answer, from the first: a quarter of them not found. */
  enriched: number
}

export interface Seeded {
  listId: string
}

declare global {
  interface Window {
    seed: {
      /** A list whose first rows were answered (`d{i % 500}.com`, statuses in `emailStatusCycle`). */
      tradeFair(options: TradeFairSeed): Promise<Seeded>
      /** A list of 300 people, all answered and so in the library, and 100 companies of a search. */
      library(): Promise<Seeded>
    }
  }
}

const countries = ['France', 'Germany', 'Spain', 'United Kingdom']
const seniorities = ['manager', 'director', 'vp', 'entry']
const listName = 'Trade fair 2026'
const columns = ['First name', 'Last name', 'Company domain', 'Notes']
const batch = 10_000

async function createList(database: LeadkeeperDb, cells: (index: number) => string[], count: number) {
  const list = await createEmptyList(
    {
      name: listName,
      source: {
        fileName: 'trade-fair.csv',
        size: 9_000_000,
        encoding: 'utf-8',
        delimiter: ',',
        hasHeader: true,
      },
      columns,
      mapping: { first_name: 0, last_name: 1, company_domain: 2 },
    },
    database,
  )
  for (let start = 0; start < count; start += batch) {
    const rows = Array.from({ length: Math.min(batch, count - start) }, (_, at) => cells(start + at))
    await appendRows(list.id, start, rows, undefined, undefined, database)
  }
  await finishImport(list.id, count, 0, database)
  return list.id
}

/** Answers for rows `[from, to)`, as the engine hands them over, filed as a run files them. */
async function answer(
  database: LeadkeeperDb,
  listId: string,
  count: number,
  answerOf: (index: number) => Omit<ResultRow, 'key'>,
): Promise<void> {
  const at = Date.now() - 3_600_000
  for (let start = 0; start < count; start += batch) {
    const rows = Array.from({ length: Math.min(batch, count - start) }, (_, offset) => ({
      key: rowKey(listId, start + offset),
      ...answerOf(start + offset),
    }))
    await applyResultBatches(listId, [{ rows, at }], database)
  }
  await database.lists.update(listId, { state: 'done', creditsSpent: count })
}

async function tradeFair({ rows, enriched }: TradeFairSeed): Promise<Seeded> {
  const database = new LeadkeeperDb()
  const cycle = ['deliverable', 'catch_all_safe', 'catch_all', 'not_found']
  const domain = (index: number) => `d${index % 500}.com`
  const listId = await createList(
    database,
    (index) => [
      `First${index}`,
      `Last${index}`,
      domain(index),
      index === 1 ? '=HYPERLINK("x")' : `note ${index}`,
    ],
    rows,
  )
  await answer(database, listId, enriched, (index) => {
    const status = cycle[index % 4]!
    if (status === 'not_found') return { status: 'not_found', kinds: ['email', 'phone'] }
    return {
      status: 'found',
      kinds: ['email', 'phone'],
      data: {
        enriched: true,
        contact_id: index,
        contact_first_name: `First${index}`,
        contact_last_name: `Last${index}`,
        contact_full_name: `First${index} Last${index}`,
        contact_email_address: `first${index}@${domain(index)}`,
        contact_email_address_status: status,
        contact_phone_number: index % 5 === 0 ? `+33 6 ${String(index).padStart(8, '0')}` : null,
        contact_job_title: 'Buyer',
        contact_seniority: seniorities[index % 3],
        contact_location_country: countries[index % 4],
        company_name: `Company ${index % 500}`,
        company_domain: domain(index),
      },
    }
  })
  database.close()
  return { listId }
}

async function library(): Promise<Seeded> {
  const database = new LeadkeeperDb()
  const people = 300
  const first = (index: number) => ['Mara', 'Otto', 'Lina', 'Paul'][index % 4]!
  const domain = (index: number) => `d${index % 100}.com`
  const listId = await createList(
    database,
    (index) => [first(index), `Person${index}`, domain(index), ''],
    people,
  )
  const statuses = ['deliverable', 'catch_all_safe', 'catch_all']
  await answer(database, listId, people, (index) => ({
    status: 'found',
    kinds: ['email', 'phone'],
    data: {
      enriched: true,
      contact_id: index,
      contact_first_name: first(index),
      contact_last_name: `Person${index}`,
      contact_full_name: `${first(index)} Person${index}`,
      contact_email_address: `${first(index).toLowerCase()}.${index}@${domain(index)}`,
      contact_email_address_status: statuses[index % 3],
      contact_phone_number: index % 5 === 0 ? '+33 6 12 34 56 78' : null,
      contact_job_title: 'Buyer',
      contact_seniority: seniorities[index % 3],
      contact_location_country: countries[index % 4],
      contact_network_profile_url: `https://network.example/in/person-${index}`,
      company_name: `Company ${index % 100}`,
      company_domain: domain(index),
    },
  }))
  const search: Provenance = {
    kind: 'company_search',
    id: 'run-1',
    label: 'Software in France',
    at: Date.now(),
  }
  await upsertCompanies(
    Array.from({ length: 100 }, (_, index) => ({
      company_name: `Company ${index}`,
      company_domain: `d${index}.com`,
      company_website: `https://d${index}.com`,
      company_network_url: `https://network.example/company/${index}`,
      company_fundingdb_url: `https://fundingdb.example/${index}`,
      company_industry: index % 2 ? 'Software' : 'Retail',
      company_description: 'Makes things people need, in several countries.',
      company_founded_year: 2001 + (index % 20),
      company_employees_count: 120 + index,
      company_employees_by_department: { engineering: 60, sales: 30, marketing: 12, operations: 18 },
      company_technologies: ['vue', 'postgresql', 'stripe'],
      company_keywords: ['saas', 'b2b'],
      company_last_funding_round_name: 'series_b',
      company_last_amount_raised_usd: 25_000_000,
      company_total_amount_raised_usd: 41_500_000,
      company_last_funding_date: '2025-03-14',
      company_head_quarters_city: 'Lyon',
      company_head_quarters_country: countries[index % 4],
      company_locations_count: 3,
      company_active_job_postings_count: 7,
    })),
    search,
    database,
  )
  database.close()
  return { listId }
}

window.seed = { tradeFair, library }
