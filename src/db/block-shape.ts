import { facetOf, rowFacets, type FacetValue, type RowFacet } from './facet-tally'
import type { FacetBlock, FacetColumn, RowBlock } from './schema'

/**
 * Rows to a block. Measured (`npm run bench`, import and grid): 1,000 writes a million rows in a
 * couple of seconds and reads the 50 rows of a screen from one or two records of ~150 kB.
 */
export const blockSize = 1_000

export const blockOf = (index: number): number => Math.floor(index / blockSize)

/**
 * Values dictionary-coded: value i is `values[codes[i]]`. A block has at most a few thousand
 * distinct values; most columns have a handful, one byte a code.
 */
export function codedColumn<V>(all: readonly V[]): { values: V[]; codes: Uint8Array | Uint16Array } {
  const values: V[] = []
  const known = new Map<V, number>()
  const codes = new Uint16Array(all.length)
  all.forEach((value, at) => {
    let code = known.get(value)
    if (code === undefined) {
      code = values.length
      known.set(value, code)
      values.push(value)
    }
    codes[at] = code
  })
  return { values, codes: values.length <= 256 ? Uint8Array.from(codes) : codes }
}

/** The block's facets, one dictionary-coded column each; a hole in the block reads as 'pending'. */
export function facetBlockOf(block: RowBlock): FacetBlock {
  const size = block.rows.length
  const columns = {} as Record<RowFacet, FacetColumn>
  for (const facet of rowFacets) {
    columns[facet] = codedColumn<FacetValue>(
      Array.from({ length: size }, (_, at) => facetOf(block.rows[at] ?? {}, facet)),
    )
  }
  return { listId: block.listId, block: block.block, size, columns }
}
