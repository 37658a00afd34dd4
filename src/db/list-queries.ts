import { rowBlockOf } from './block-shape'
import { blockOf, blockSize, withList } from './blocks'
import { readRemovals, removalsBetween, withRemovals } from './removals'
import {
  isPlain,
  loadColumns,
  positionsOf,
  saveColumns,
  snapshotsDue,
  usesCompany,
  type ListColumns,
  type RowQuery,
} from './row-query'
import type { LeadkeeperDb } from './schema'
import type { RowBlock, RowRecord } from './records'

/**
 * The grid's view of a list: its filter and order, and the rows at any position of it. Runs in the
 * query worker (`src/workers/list-query.ts`), which keeps the list's facet columns and its recent
 * blocks between calls, so the page never filters, sorts or reads a block itself.
 */
export interface ListQueries {
  /**
   * Sets the list's view and answers how many rows it holds; null for the whole list in import
   * order (the list record knows its size, so nothing is counted).
   */
  view(listId: string, query: Omit<RowQuery, 'offset' | 'limit'>): Promise<number | null>
  /** The rows at view positions `[start, start + count)`. */
  rows(listId: string, start: number, count: number): Promise<RowRecord[]>
  /** Reads the list's facet columns ahead of a first filter; rows are read meanwhile. */
  warm(listId: string): Promise<void>
  /**
   * The row indexes of the view, in its order: what "every row shown" means to a change of the
   * user's; null for the whole list in import order.
   */
  indexes(listId: string): Promise<Int32Array | null>
  dispose(): void
}

/** Blocks kept between calls: a screen and the ones around it, ~150 kB each. */
const cachedBlocks = 64

/**
 * What the worker does once the grid is quiet (`whenQuiet`), this long after the last load of
 * columns and the last rows read: it reads the company's column (a name a row to place, the
 * worker's longest work) and stores the columns (`saveColumns`), so that neither holds the rows of
 * a scroll (`npm run bench -- --only browser`, the grid). Read ahead while a scroll ran, the company's column
 * left rows of it unfilled and frames missed.
 */
export const quietAfterMs = 2_000

export class LocalListQueries implements ListQueries {
  private columns: ListColumns | null = null
  /**
   * A column load under way (`warm`, or the company's column at a quiet moment): a view waits for
   * it rather than reading the same twice.
   */
  private loading: Promise<void> | null = null
  private current: { listId: string; positions: Int32Array | null } | null = null
  private readonly blocks = new Map<number, { rev: number; block: RowBlock }>()
  private blocksOf: string | null = null
  /** The list's removals revision the cached blocks' rows were read under. */
  private removalsOf: number | undefined = undefined
  private quietTimer: ReturnType<typeof setTimeout> | null = null

  constructor(private readonly database: LeadkeeperDb) {}

  async view(listId: string, query: Omit<RowQuery, 'offset' | 'limit'>): Promise<number | null> {
    if (isPlain(query)) {
      this.current = { listId, positions: null }
      return null
    }
    await this.loading
    this.columns = await loadColumns(this.database, listId, this.columns ?? undefined, usesCompany(query))
    this.whenQuietLater()
    const positions = positionsOf(this.columns, query)
    this.current = { listId, positions }
    return positions.length
  }

  async rows(listId: string, start: number, count: number): Promise<RowRecord[]> {
    // A scroll under way: what waits for a quiet moment waits for it to stop.
    if (this.quietTimer !== null) this.whenQuietLater()
    const positions = this.current?.listId === listId ? this.current.positions : null
    const end = positions ? Math.min(positions.length, start + count) : start + count
    const indexes: number[] = []
    for (let at = start; at < end; at++) indexes.push(positions ? positions[at]! : at)
    const blocks = await this.blocksAt(listId, indexes.map(blockOf))
    return indexes.flatMap((index) => {
      const row = blocks.get(blockOf(index))?.rows[index % blockSize]
      return row ? [withList(listId, row)] : []
    })
  }

  // A copy: the view's own positions stay the worker's, and the copy is moved to the page.
  indexes(listId: string): Promise<Int32Array | null> {
    const positions = this.current?.listId === listId ? this.current.positions : null
    return Promise.resolve(positions ? positions.slice() : null)
  }

  /**
   * Reads the list's narrow facets' columns ahead (a first filter by any of them then reads none);
   * the company's follows once the grid is quiet (`whenQuiet`).
   */
  warm(listId: string): Promise<void> {
    return this.load(listId, false)
  }

  /** A load of the columns beside the worker's queue, which a view waits for. */
  private load(listId: string, withCompany: boolean): Promise<void> {
    this.loading ??= loadColumns(this.database, listId, this.columns ?? undefined, withCompany)
      .then((columns) => {
        this.columns = columns
        this.whenQuietLater()
      })
      .finally(() => {
        this.loading = null
      })
    return this.loading
  }

  /**
   * Reads the first block of the list last worked on (not one still being imported), as the worker
   * starts at the app's first idle moment: that list is the one most often opened next (Start leads
   * to it), and a first read of a block, cold, is slow enough that the opening's own drawing would
   * otherwise wait for it. Nothing is read once a list is asked for (`asked`: the app may open
   * another one first, a window reloaded on a list's page) or when the worker has a list already.
   */
  async prime(asked: () => boolean = () => false): Promise<void> {
    const latest = await this.database.lists
      .orderBy('updatedAt')
      .reverse()
      .filter((list) => list.state !== 'importing')
      .first()
    if (!latest || asked() || this.blocksOf !== null) return
    await this.blocksAt(latest.id, [0])
  }

  /**
   * Stores the list's columns now if they have changed since they were last read or stored (see
   * `saveColumns`); answers whether anything was written.
   */
  async saveColumns(): Promise<boolean> {
    return this.columns ? saveColumns(this.database, this.columns) : false
  }

  /**
   * What waits for a quiet moment, now: the company's column of the list on screen read, if a
   * query has not read it yet, then the columns stored if they are due.
   */
  async whenQuiet(): Promise<void> {
    this.cancelQuiet()
    const columns = this.columns
    if (!columns) return
    if (this.companyToRead(columns)) {
      if (this.loading) {
        // Another load is under way: the company's column waits for the next quiet moment.
        await this.loading
        return this.whenQuietLater()
      }
      await this.load(columns.listId, true)
      // Stored now: the load's own wait for a quiet moment is not needed.
      this.cancelQuiet()
    }
    await this.saveColumns()
  }

  private whenQuietLater(): void {
    this.cancelQuiet()
    const columns = this.columns
    if (!columns) return
    if (!this.companyToRead(columns) && snapshotsDue(columns).length === 0) return
    this.quietTimer = setTimeout(() => {
      this.quietTimer = null
      // A cache: a read or write that fails (the disk full, the database closing) leaves the
      // facet records, which a query reads then.
      this.whenQuiet().catch(() => undefined)
    }, quietAfterMs)
  }

  /** True while the company's column of the list on screen has not been read. */
  private companyToRead(columns: ListColumns): boolean {
    return columns.companyRevs === null && this.current?.listId === columns.listId
  }

  private cancelQuiet(): void {
    if (this.quietTimer !== null) clearTimeout(this.quietTimer)
    this.quietTimer = null
  }

  dispose(): void {
    this.cancelQuiet()
    this.columns = null
    this.current = null
    this.blocks.clear()
  }

  /** Blocks by number, from the cache while their revision holds. */
  private async blocksAt(listId: string, numbers: number[]): Promise<Map<number, RowBlock>> {
    if (this.blocksOf !== listId) {
      this.blocks.clear()
      this.blocksOf = listId
      this.removalsOf = undefined
    }
    const wanted = [...new Set(numbers)]
    const out = new Map<number, RowBlock>()
    if (wanted.length === 0) return out
    const tables = [this.database.blockRevs, this.database.listBlocks, this.database.listRemovals]
    await this.database.transaction('r', tables, async () => {
      const revisions = await this.database.blockRevs.get(listId)
      const revs = revisions?.revs ?? []
      // Rows removed or restored: no block was written, but every cached row's removal may differ.
      if (revisions?.removals !== this.removalsOf) {
        this.blocks.clear()
        this.removalsOf = revisions?.removals
      }
      const missing: number[] = []
      for (const number of wanted) {
        const cached = this.blocks.get(number)
        if (cached && cached.rev === revs[number]) {
          out.set(number, cached.block)
          // Most recently used last: the oldest go first when the cache is full.
          this.blocks.delete(number)
          this.blocks.set(number, cached)
        } else missing.push(number)
      }
      if (missing.length === 0) return
      const read = await this.readBlocks(listId, missing)
      for (const block of read) {
        out.set(block.block, block)
        this.blocks.set(block.block, { rev: revs[block.block] ?? 0, block })
      }
    })
    for (const number of this.blocks.keys()) {
      if (this.blocks.size <= cachedBlocks) break
      this.blocks.delete(number)
    }
    return out
  }

  /** Neighbouring blocks in one range read, scattered ones by key. */
  private async readBlocks(listId: string, numbers: number[]): Promise<RowBlock[]> {
    const sorted = [...numbers].sort((a, b) => a - b)
    const first = sorted[0]!
    const last = sorted[sorted.length - 1]!
    if (last - first < sorted.length * 2) {
      const [range, removals] = await Promise.all([
        this.database.listBlocks.where(':id').between([listId, first], [listId, last], true, true).toArray(),
        removalsBetween(this.database, listId, first, last),
      ])
      const wanted = new Set(sorted)
      return range
        .filter((block) => wanted.has(block.block))
        .map((block) => withRemovals(rowBlockOf(block), removals.get(block.block)))
    }
    const [blocks, removals] = await Promise.all([
      this.database.listBlocks.bulkGet(sorted.map((number): [string, number] => [listId, number])),
      readRemovals(this.database, listId, sorted),
    ])
    return blocks
      .filter((block) => block !== undefined)
      .map((block) => withRemovals(rowBlockOf(block), removals.get(block.block)))
  }
}
