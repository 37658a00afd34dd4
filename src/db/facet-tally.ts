import Dexie, { type Table } from 'dexie'
import { addCounts, type CountDelta } from './counts'
import type {
  CompanyBlock,
  FacetBlock,
  FacetColumn,
  FacetCountRecord,
  FacetValue,
  RowFacet,
  RowRecord,
} from './records'

export type { FacetValue, RowFacet }

/** Row fields a list's queries filter, count and sort by, from the block's facet columns. */
export const rowFacets: readonly RowFacet[] = [
  'status',
  'emailStatus',
  'seniority',
  'country',
  'company',
  'hasPhone',
]

/** The value each descriptive facet has while unknown; rows store it by leaving the field out. */
export const unknownValue = { emailStatus: '', seniority: '', country: '', company: '', hasPhone: 0 } as const
export type DescriptiveFacet = keyof typeof unknownValue
export const descriptiveFacets = Object.keys(unknownValue) as DescriptiveFacet[]

export const isDescriptive = (facet: RowFacet): facet is DescriptiveFacet => facet !== 'status'

/**
 * The status a removed row is filtered and counted under: it keeps its own (`RowRecord.status`) for
 * when it is restored.
 */
export const removedStatus = 'removed'

/** A row's value of a facet, with a missing field read as the unknown value. */
export function facetOf(row: Partial<RowRecord>, facet: RowFacet): FacetValue {
  if (facet === 'status') return row.removedAt !== undefined ? removedStatus : (row.status ?? 'pending')
  return row[facet] ?? unknownValue[facet]
}

/**
 * The values a row is counted under: its status, and each descriptive facet that is known. A
 * removed row is counted under its status alone, so that every other count is of the rows shown.
 */
export function countedValues(row: Partial<RowRecord>): [RowFacet, FacetValue][] {
  const values: [RowFacet, FacetValue][] = [['status', facetOf(row, 'status')]]
  if (row.removedAt !== undefined) return values
  for (const facet of descriptiveFacets) {
    const value = facetOf(row, facet)
    if (value !== unknownValue[facet]) values.push([facet, value])
  }
  return values
}

type CountKey = [string, RowFacet, FacetValue]
type CountTable = Table<FacetCountRecord, [string, string, FacetValue]>

/** The stored counts of one list. */
export function listCounts(table: CountTable, listId: string) {
  // A shorter array sorts before every longer one it starts, an array after every string: so these
  // bounds hold all of the list's keys. (One array twice in a key would read as a cycle.)
  return table.where('[listId+facet+value]').between([listId], [listId, Dexie.maxKey], true, true)
}

/**
 * Changes to a list's facet counts, gathered in memory and written at once with `applyTally`. Kept
 * by list, facet and value in maps of their own, not by a key made of the three: a removal or a run
 * tallies every value of every row it changes, and a key a change is a string made each time.
 */
export class FacetTally implements CountDelta<FacetCountRecord, CountKey> {
  readonly keyOf = ({ listId, facet, value }: FacetCountRecord): CountKey => [listId, facet, value]
  private readonly changes = new Map<string, Map<RowFacet, Map<FacetValue, number>>>()

  addValue(listId: string, facet: RowFacet, value: FacetValue, delta: number): void {
    let facets = this.changes.get(listId)
    if (!facets) this.changes.set(listId, (facets = new Map()))
    let values = facets.get(facet)
    if (!values) facets.set(facet, (values = new Map()))
    values.set(value, (values.get(value) ?? 0) + delta)
  }

  /** Counts a row in (`sign` 1) or out (-1). */
  add(listId: string, row: Partial<RowRecord>, sign: 1 | -1): void {
    for (const [facet, value] of countedValues(row)) this.addValue(listId, facet, value, sign)
  }

  /** The non-zero changes, each as a record whose `count` is the change. */
  records(): FacetCountRecord[] {
    const out: FacetCountRecord[] = []
    for (const [listId, facets] of this.changes)
      for (const [facet, values] of facets)
        for (const [value, count] of values) if (count !== 0) out.push({ listId, facet, value, count })
    return out
  }
}

/**
 * Counts rows of a block in (`sign` 1) or out (-1) from its facet and company records, as `add`
 * counts a row that is not removed: its status and each descriptive facet that is known. `offsets`:
 * the rows' places in the block; null for all of them.
 */
export function tallyFacetRecords(
  tally: FacetTally,
  listId: string,
  facets: FacetBlock,
  company: CompanyBlock | undefined,
  offsets: readonly number[] | null,
  sign: 1 | -1,
): void {
  const count = (facet: RowFacet, column: FacetColumn) => {
    const perCode = new Int32Array(column.values.length)
    if (offsets) for (const offset of offsets) perCode[column.codes[offset]!]! += 1
    else for (let offset = 0; offset < facets.size; offset++) perCode[column.codes[offset]!]! += 1
    perCode.forEach((rows, code) => {
      if (rows === 0) return
      const value = column.values[code]!
      if (isDescriptive(facet) && value === unknownValue[facet]) return
      tally.addValue(listId, facet, value, sign * rows)
    })
  }
  count('status', facets.columns.status)
  for (const facet of descriptiveFacets) {
    if (facet !== 'company') count(facet, facets.columns[facet])
    else if (company) count(facet, company.column)
  }
}

/**
 * Changes to one list past which its stored counts are read in one range read rather than by key:
 * a removal or a new list of many rows changes a count a company (`npm run bench -- --only edits`).
 */
const changesByKey = 64

/** Adds a tally's changes to the stored counts; call inside the transaction that changed the rows. */
export async function applyTally(table: CountTable, tally: FacetTally): Promise<void> {
  const records = tally.records()
  if (records.length <= changesByKey) return addCounts(table, tally)
  const byList = new Map<string, FacetCountRecord[]>()
  for (const record of records) {
    const list = byList.get(record.listId)
    if (list) list.push(record)
    else byList.set(record.listId, [record])
  }
  const kept: FacetCountRecord[] = []
  const emptied: CountKey[] = []
  for (const [listId, changes] of byList) {
    const held = new Map<RowFacet, Map<FacetValue, number>>()
    for (const { facet, value, count } of await listCounts(table, listId).toArray()) {
      let values = held.get(facet)
      if (!values) held.set(facet, (values = new Map()))
      values.set(value, count)
    }
    for (const change of changes) {
      const count = (held.get(change.facet)?.get(change.value) ?? 0) + change.count
      if (count > 0) kept.push({ ...change, count })
      else emptied.push(tally.keyOf(change))
    }
  }
  await table.bulkPut(kept)
  if (emptied.length > 0) await table.bulkDelete(emptied)
}
