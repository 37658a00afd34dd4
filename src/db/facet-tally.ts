import Dexie, { type Table } from 'dexie'
import { addCounts, CountChanges } from './counts'
import type { FacetCountRecord, FacetValue, RowFacet, RowRecord } from './records'

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

/** Changes to a list's facet counts, gathered in memory and written at once with `applyTally`. */
export class FacetTally extends CountChanges<FacetCountRecord, CountKey> {
  constructor() {
    super(({ listId, facet, value }) => [listId, facet, value])
  }

  addValue(listId: string, facet: RowFacet, value: FacetValue, delta: number): void {
    this.change({ listId, facet, value, count: delta })
  }

  /** Counts a row in (`sign` 1) or out (-1). */
  add(listId: string, row: Partial<RowRecord>, sign: 1 | -1): void {
    for (const [facet, value] of countedValues(row)) this.addValue(listId, facet, value, sign)
  }
}

/** Adds a tally's changes to the stored counts; call inside the transaction that changed the rows. */
export function applyTally(table: CountTable, tally: FacetTally): Promise<void> {
  return addCounts(table, tally)
}
