import type { IndexableType, IndexableTypeArrayReadonly } from 'dexie'
import { facetOf, rowFacets, type FacetValue, type RowFacet } from './facet-tally'
import type { CompanyBlock, FacetBlock, FacetColumn, LegacyFacetBlock, NarrowFacet, RowBlock } from './schema'

/**
 * Rows to a block. Measured (`npm run bench`, import and grid): 1,000 writes a million rows in a
 * couple of seconds and reads the 50 rows of a screen from one or two records of ~150 kB.
 */
export const blockSize = 1_000

export const blockOf = (index: number): number => Math.floor(index / blockSize)

/**
 * The keys of a put into a table keyed out of line (`listBlocks`, `peopleBlocks`…): Dexie types them
 * as single values, and a compound key is an array of values, which IndexedDB takes as a key.
 */
export const outOfLine = (keys: readonly IndexableType[]): IndexableTypeArrayReadonly =>
  keys as IndexableTypeArrayReadonly

/**
 * Values dictionary-coded: value i is `values[codes[i]]`. A block has at most a few thousand
 * distinct values; most columns have a handful, one byte a code.
 */
export function codedColumn<V>(all: readonly V[]): { values: V[]; codes: Uint8Array | Uint16Array } {
  const values: V[] = []
  const known = new Map<V, number>()
  const codes = new Uint16Array(all.length)
  // Runs of one value are the common case (a column of a list not enriched yet is one value).
  let last: V | undefined
  let lastCode = -1
  for (let at = 0; at < all.length; at++) {
    const value = all[at]!
    if (lastCode < 0 || value !== last) {
      let code = known.get(value)
      if (code === undefined) {
        code = values.length
        known.set(value, code)
        values.push(value)
      }
      last = value
      lastCode = code
    }
    codes[at] = lastCode
  }
  return { values, codes: values.length <= 256 ? new Uint8Array(codes) : codes }
}

/** The facets a `FacetBlock` keeps together; the company column is a record of its own. */
export const narrowFacets = rowFacets.filter((facet): facet is NarrowFacet => facet !== 'company')

const noRow = Object.freeze({})

/** Every facet of the block, one dictionary-coded column each; a hole in the block reads as 'pending'. */
function facetColumnsOf(block: RowBlock): Record<RowFacet, FacetColumn> {
  const size = block.rows.length
  const columns = {} as Record<RowFacet, FacetColumn>
  const cells = new Array<FacetValue>(size)
  for (const facet of rowFacets) {
    for (let at = 0; at < size; at++) cells[at] = facetOf(block.rows[at] ?? noRow, facet)
    columns[facet] = codedColumn<FacetValue>(cells)
  }
  return columns
}

/** A block's facets as versions 3 to 7 stored them, all in one record (their upgrades write these). */
export function legacyFacetBlockOf(block: RowBlock): LegacyFacetBlock {
  return { listId: block.listId, block: block.block, size: block.rows.length, columns: facetColumnsOf(block) }
}

/** The records a block's facets are kept in: the narrow ones together, the company column apart. */
export function facetRecordsOf(block: RowBlock): { facets: FacetBlock; company: CompanyBlock } {
  return splitFacets(legacyFacetBlockOf(block))
}

/** The two records of the facets one record held before version 8. */
export function splitFacets(legacy: LegacyFacetBlock): { facets: FacetBlock; company: CompanyBlock } {
  const { listId, block, size, columns } = legacy
  const { company, ...narrow } = columns
  return {
    facets: { listId, block, size, columns: narrow },
    company: { listId, block, size, column: company },
  }
}
