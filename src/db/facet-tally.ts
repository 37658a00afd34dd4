import Dexie, { type Table } from 'dexie'
import { addCounts, type CountDelta } from './counts'
import { keyHash } from './key-hash'
import type {
  CompanyBlock,
  CompanyCountBlock,
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
type CompanyCountTable = Table<CompanyCountBlock, [string, number]>

/** Where a list's counts are kept: its companies' apart from its other facets'. */
export interface CountStores {
  facetCounts: CountTable
  companyCounts: CompanyCountTable
}

/** The tables a change of a list's counts writes, for its transaction. */
export const countTables = (database: CountStores) => [database.facetCounts, database.companyCounts]

/** The bucket of a company's name among a list's company counts (`CompanyCountBlock`). */
export const companyBucket = (name: string): number => keyHash(name) & 63

/** The stored counts of one list but its companies'. */
export function listCounts(table: CountTable, listId: string) {
  // A shorter array sorts before every longer one it starts, an array after every string: so these
  // bounds hold all of the list's keys. (One array twice in a key would read as a cycle.)
  return table.where('[listId+facet+value]').between([listId], [listId, Dexie.maxKey], true, true)
}

/** The stored company counts of one list, a record a bucket. */
export function listCompanyCounts(table: CompanyCountTable, listId: string) {
  return table.where('[listId+bucket]').between([listId, Dexie.minKey], [listId, Dexie.maxKey], true, true)
}

/** Deletes every count of a list; in the caller's transaction over `countTables`. */
export async function deleteCounts(database: CountStores, listId: string): Promise<void> {
  await listCounts(database.facetCounts, listId).delete()
  await listCompanyCounts(database.companyCounts, listId).delete()
}

/** Copies every count of a list to another; in the caller's transaction over `countTables`. */
export async function copyCounts(database: CountStores, from: string, to: string): Promise<void> {
  const counts = await listCounts(database.facetCounts, from).toArray()
  await database.facetCounts.bulkPut(counts.map((count) => ({ ...count, listId: to })))
  const companies = await listCompanyCounts(database.companyCounts, from).toArray()
  await database.companyCounts.bulkPut(companies.map((block) => ({ ...block, listId: to })))
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

  /** The changes of every facet but the company, kept a record a value. */
  facetRecords(): FacetCountRecord[] {
    return this.records().filter((record) => record.facet !== 'company')
  }

  /** The changes of each list's company counts, by name. */
  companyChanges(): Map<string, Map<FacetValue, number>> {
    const out = new Map<string, Map<FacetValue, number>>()
    for (const [listId, facets] of this.changes) {
      const values = facets.get('company')
      if (values) out.set(listId, values)
    }
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
 * a removal or a new list of many rows changes a count a country, a title's seniority, a status.
 */
const changesByKey = 64

/** Adds a tally's changes to the stored counts; call inside the transaction that changed the rows. */
export async function applyTally(database: CountStores, tally: FacetTally): Promise<void> {
  await applyFacetCounts(database.facetCounts, tally)
  await applyCompanyCounts(database.companyCounts, tally)
}

async function applyFacetCounts(table: CountTable, tally: FacetTally): Promise<void> {
  const records = tally.facetRecords()
  if (records.length <= changesByKey) return addCounts(table, { keyOf: tally.keyOf, records: () => records })
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

/** Adds the tally's company changes to the buckets they fall in; a bucket left with no company is deleted. */
async function applyCompanyCounts(table: CompanyCountTable, tally: FacetTally): Promise<void> {
  for (const [listId, changes] of tally.companyChanges()) {
    const byBucket = new Map<number, [string, number][]>()
    for (const [value, delta] of changes) {
      if (delta === 0) continue
      const name = String(value)
      const bucket = companyBucket(name)
      const list = byBucket.get(bucket)
      if (list) list.push([name, delta])
      else byBucket.set(bucket, [[name, delta]])
    }
    if (byBucket.size === 0) continue
    const buckets = [...byBucket.keys()]
    const keys = buckets.map((bucket): [string, number] => [listId, bucket])
    const stored = await table.bulkGet(keys)
    const kept: CompanyCountBlock[] = []
    const emptied: [string, number][] = []
    buckets.forEach((bucket, at) => {
      const counts = new Map<string, number>()
      const block = stored[at]
      if (block) block.names.forEach((name, place) => counts.set(name, block.counts[place]!))
      for (const [name, delta] of byBucket.get(bucket)!) counts.set(name, (counts.get(name) ?? 0) + delta)
      const names: string[] = []
      const held: number[] = []
      for (const [name, count] of counts) {
        if (count <= 0) continue
        names.push(name)
        held.push(count)
      }
      if (names.length > 0) kept.push({ listId, bucket, names, counts: held })
      else if (block) emptied.push(keys[at]!)
    })
    if (kept.length > 0) await table.bulkPut(kept)
    if (emptied.length > 0) await table.bulkDelete(emptied)
  }
}
