/** Loads `count` rows from position `start` of the grid's current order. */
export type FetchRows<T> = (start: number, count: number) => Promise<T[]>

/**
 * The rows a grid has fetched, by page, for the part of the list around the viewport. Only the
 * most recently used pages are kept, so scrolling through a million rows holds a few thousand.
 * When the rows behind it change, the grid fills a new window and swaps it in.
 */
export class RowWindow<T> {
  private pages = new Map<number, T[]>()
  private loading = new Map<number, Promise<void>>()

  constructor(
    private readonly fetchRows: FetchRows<T>,
    readonly pageSize = 100,
    readonly maxPages = 40,
  ) {}

  get(index: number): T | undefined {
    return this.pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize]
  }

  /** Fetches the missing pages of rows [start, end); resolves once they are in, true if any were. */
  async ensure(start: number, end: number): Promise<boolean> {
    const wanted: number[] = []
    for (let page = Math.floor(start / this.pageSize); page * this.pageSize < end; page += 1)
      wanted.push(page)
    for (const page of wanted) this.touch(page)
    const missing = wanted.filter((page) => !this.pages.has(page))
    if (missing.length === 0) return false
    await Promise.all(missing.map((page) => this.load(page)))
    return true
  }

  private touch(page: number): void {
    const rows = this.pages.get(page)
    if (!rows) return
    this.pages.delete(page)
    this.pages.set(page, rows)
  }

  private load(page: number): Promise<void> {
    const pending = this.loading.get(page)
    if (pending) return pending
    const loading = this.fetchRows(page * this.pageSize, this.pageSize).then(
      (rows) => {
        this.loading.delete(page)
        this.pages.set(page, rows)
        while (this.pages.size > this.maxPages) this.pages.delete(this.pages.keys().next().value!)
      },
      (error: unknown) => {
        this.loading.delete(page)
        throw error
      },
    )
    this.loading.set(page, loading)
    return loading
  }
}
