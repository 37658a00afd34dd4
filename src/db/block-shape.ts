import { facetOf, rowFacets, type FacetValue, type RowFacet } from './facet-tally'
import type { FacetBlock, FacetColumn, RowBlock } from './schema'

/**
 * Rows to a block. Measured (`npm run bench`, import and grid): 1,000 writes a million rows in a
 * couple of seconds and reads the 50 rows of a screen from one or two records of ~150 kB.
 */
export const blockSize = 1_000

export const blockOf = (index: number): number => Math.floor(index / blockSize)

/** The block's facets, one dictionary-coded column each; a hole in the block reads as 'pending'. */
export function facetBlockOf(block: RowBlock): FacetBlock {
  const size = block.rows.length
  const columns = {} as Record<RowFacet, FacetColumn>
  for (const facet of rowFacets) {
    const values: FacetValue[] = []
    const known = new Map<FacetValue, number>()
    const codes = new Uint16Array(size)
    for (let at = 0; at < size; at++) {
      const value = facetOf(block.rows[at] ?? {}, facet)
      let code = known.get(value)
      if (code === undefined) {
        code = values.length
        known.set(value, code)
        values.push(value)
      }
      codes[at] = code
    }
    // A block has at most `blockSize` distinct values; most facets have a handful, one byte each.
    columns[facet] = { values, codes: values.length <= 256 ? Uint8Array.from(codes) : codes }
  }
  return { listId: block.listId, block: block.block, size, columns }
}
