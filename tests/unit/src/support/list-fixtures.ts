import type { ResultRow } from '@shared/contract'
import { appendRows } from '@/db/lists'
import { rowKey, type LeadkeeperDb } from '@/db/schema'
import type { ListRecord } from '@/db/records'

/** Lists and service answers for tests of what a run writes. */

export function list(id: string, rowCount: number): ListRecord {
  return {
    id,
    name: `List ${id}`,
    createdAt: 1,
    updatedAt: 1,
    source: { fileName: 'a.csv', size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
    columns: ['First', 'Last', 'Domain'],
    mapping: { first_name: 0, last_name: 1, company_domain: 2 },
    rowCount,
    state: 'running',
    jobIds: [],
    creditsSpent: 0,
  }
}

export const inputValues = (index: number) => [`First${index}`, `Last${index}`, `d${index % 7}.com`]

/** A list imported the way the app imports one. */
export async function seed(database: LeadkeeperDb, listId: string, count: number) {
  await database.lists.put(list(listId, count))
  const rows = Array.from({ length: count }, (_, index) => inputValues(index))
  await appendRows(listId, 0, rows, undefined, undefined, database)
}

/** A found row answering the email it was asked for. */
export const asked = (listId: string, index: number): ResultRow => ({
  ...found(listId, index),
  kinds: ['email'],
})

export function found(listId: string, index: number, extra: Record<string, unknown> = {}): ResultRow {
  return {
    key: rowKey(listId, index),
    status: 'found',
    data: {
      enriched: true,
      contact_id: 1000 + index,
      contact_first_name: `First${index}`,
      contact_last_name: `Last${index}`,
      contact_email_address: `p${index}@d${index % 7}.com`,
      contact_email_address_status: 'Deliverable',
      contact_seniority: 'manager',
      contact_location_country: 'France',
      contact_phone_number: index % 2 ? '+33 1' : null,
      company_name: `Co${index % 7}`,
      company_domain: `d${index % 7}.com`,
      custom_fields: [{ name: 'key', value: rowKey(listId, index), position: 0 }],
      ...extra,
    },
  }
}
