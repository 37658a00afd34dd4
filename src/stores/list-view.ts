import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef } from 'vue'
import { notify } from '@/ui/notify'
import type { GridSort } from '@/ui/grid-types'
import { listQueries } from '@/db/query-worker'
import {
  facetCounts,
  removedCount,
  removedStatus,
  shownCount,
  summaryOf,
  type FacetValue,
  type ListSummary,
  type RowFacet,
  type RowFacetCounts,
  type RowQuery,
} from '@/db/rows'
import { db } from '@/db/schema'
import type { ListRecord, RowRecord } from '@/db/records'
import { downloadFile, type ExportFormat } from '@/db/export-file'
import { exportInWorkers } from '@/workers/export-client'
import { listColumns, type ResultColumn } from '@domain/export/columns'
import type { CsvFor } from '@domain/export/csv'
import { safeEmailStatuses } from '@domain/email-status'

export type RowFilters = Partial<Record<RowFacet, FacetValue[]>>

/** How long after the grid last asked for rows a list's facet columns are read (at the next idle time). */
const warmAfterMs = 600

/** The grid's first read: its first page of rows (`RowWindow`'s page). */
const firstPage = { start: 0, count: 100 }

const hiddenKey = (listId: string) => `leadkeeper.list-columns.${listId}`

function readHidden(listId: string): string[] {
  try {
    const saved: unknown = JSON.parse(localStorage.getItem(hiddenKey(listId)) ?? '[]')
    return Array.isArray(saved) ? saved.filter((key): key is string => typeof key === 'string') : []
  } catch {
    return []
  }
}

/** The results view of the list on screen: its filter, order, columns and counts. */
export const useListViewStore = defineStore('listView', () => {
  const listId = ref<string | null>(null)
  const list = shallowRef<ListRecord | null>(null)
  const filters = ref<RowFilters>({})
  const sort = ref<GridSort | null>(null)
  const hidden = ref<string[]>([])
  const counts = shallowRef<RowFacetCounts | null>(null)
  const matching = ref(0)
  /** Bumped whenever the rows behind the grid may have changed. */
  const version = ref(0)
  const exporting = ref<number | null>(null)
  let subscriptions: Subscription[] = []
  // Filtering, sorting and reading rows happen in the app's query worker (`listQueries()`), which
  // holds the view.
  /** Whether the worker's view is filtered or sorted (else: the whole list in import order). */
  let viewed = false
  let counting = 0
  /** The list whose facet columns the worker has been asked to read ahead. */
  let warmed: string | null = null
  let warmTimer: ReturnType<typeof setTimeout> | null = null
  let warmIdle: number | null = null
  function cancelWarm(): void {
    if (warmTimer !== null) clearTimeout(warmTimer)
    if (warmIdle !== null) cancelIdleCallback(warmIdle)
    warmTimer = null
    warmIdle = null
  }
  /**
   * The list's first page of rows, asked of the worker as soon as the list's revisions are known,
   * while the page renders, for the grid's first read. Dropped once a block is written after it
   * was asked (the revisions change) or the view is no longer the whole list.
   */
  let firstRows: Promise<RowRecord[]> | null = null
  /** Whether the first page asked as the list opened has come back (or failed): the page waits on it. */
  const firstRowsIn = ref(false)
  /** Counts the openings: a first page that comes back after the list was left and opened again is not this opening's. */
  let openings = 0

  /** Asks the worker for the grid's first page, for the grid's next first read (`fetchRows`). */
  function askFirstPage(id: string): Promise<RowRecord[]> {
    const asked = listQueries().rows(id, firstPage.start, firstPage.count)
    asked.catch(() => undefined)
    firstRows = asked
    return asked
  }

  const columns = computed<ResultColumn[]>(() => (list.value ? listColumns(list.value.columns) : []))
  const visibleColumns = computed(() => columns.value.filter((column) => !hidden.value.includes(column.key)))
  /** Rows shown: every row but the removed ones. */
  const total = computed(() => (counts.value ? shownCount(counts.value) : 0))
  /** Rows the user removed, kept to be restored. */
  const removed = computed(() => (counts.value ? removedCount(counts.value) : 0))
  /** Whether the view is of the removed rows ("Removed rows"). */
  const showingRemoved = computed(() => (filters.value.status ?? []).includes(removedStatus))
  /** The summary's figures; the total is the view's (a list stored without counts is counted by its rows). */
  const summary = computed<ListSummary | null>(() =>
    counts.value ? { ...summaryOf(counts.value), total: total.value } : null,
  )
  const filtered = computed(() => Object.values(filters.value).some((values) => values && values.length > 0))
  /** Whether a filter narrows the view: the removed rows' view is not one, it is the rows shown. */
  const narrowed = computed(() =>
    Object.entries(filters.value).some(
      ([facet, values]) =>
        values &&
        values.length > 0 &&
        !(facet === 'status' && values.length === 1 && values[0] === removedStatus),
    ),
  )
  const safeOnly = computed(() => {
    const chosen = filters.value.emailStatus ?? []
    return (
      chosen.length === safeEmailStatuses.length && safeEmailStatuses.every((value) => chosen.includes(value))
    )
  })

  /**
   * Shows a list; `shown` is its record when the caller has it already (the list's page), so that
   * its results and first rows need not wait for the record to be read again.
   */
  function open(id: string, shown?: ListRecord): void {
    if (listId.value === id) {
      if (shown?.id === id && list.value === null) showList(shown)
      return
    }
    close()
    listId.value = id
    filters.value = {}
    sort.value = null
    hidden.value = readHidden(id)
    // The worker may still hold this list's last filtered view: the first rows read come after this.
    listQueries()
      .view(id, {})
      .catch(() => undefined)
    // The grid's first page, asked at once: the worker reads it while the page renders. Rows read
    // before the list's revisions are first known are read again after them (`recount`).
    const opening = ++openings
    const early = askFirstPage(id)
    firstRowsIn.value = false
    const arrived = () => {
      if (openings === opening) firstRowsIn.value = true
    }
    early.then(arrived, arrived)
    if (shown?.id === id) showList(shown)
    let revisionsSeen = 0
    // Results arrive in batches while a run goes on: the counts follow and the grid refetches.
    subscriptions = [
      liveQuery(() => db.lists.get(id)).subscribe({ next: (next) => showList(next ?? null) }),
      liveQuery(() => facetCounts(id)).subscribe({
        next: (next) => {
          const removedBefore = counts.value ? removedCount(counts.value) : 0
          counts.value = next
          // Rows removed or restored: the view passes over them, or no longer needs to.
          if (!viewed || removedBefore !== removedCount(next)) void recount()
        },
        error: (error: unknown) => notify.error(`The list's rows could not be counted: ${String(error)}`),
      }),
      // Any block written (a result, a skip, a check): the view is recounted and the grid refetches.
      // The first answer tells the blocks as they are: the first page asked after it is current
      // until the next.
      liveQuery(() => db.blockRevs.get(id)).subscribe({
        next: () => {
          revisionsSeen += 1
          firstRows = null
          if (revisionsSeen === 1 && viewQuery() === null) askFirstPage(id)
          void recount()
        },
      }),
    ]
  }

  function showList(next: ListRecord | null): void {
    const before = list.value
    list.value = next
    // The whole list in import order needs no counting: its size is on the list record, so the
    // first rows show at once while the facets are still being counted.
    if (
      next &&
      counts.value === null &&
      viewQuery() === null &&
      !viewed &&
      (before === null || before.rowCount !== next.rowCount)
    ) {
      matching.value = next.rowCount
      version.value += 1
    }
  }

  function close(): void {
    cancelWarm()
    for (const subscription of subscriptions) subscription.unsubscribe()
    subscriptions = []
    firstRows = null
    listId.value = null
    list.value = null
    counts.value = null
    viewed = false
  }

  function viewQuery(): Omit<RowQuery, 'offset' | 'limit'> | null {
    const column = columns.value.find((one) => one.key === sort.value?.key)
    const field: RowFacet | 'index' | undefined = sort.value?.key === 'index' ? 'index' : column?.facet
    const ordered = sort.value && field ? { sort: { field, direction: sort.value.direction } } : {}
    // Removed rows are passed over by every view: with any, the whole list is a view too.
    const hideRemoved = removed.value > 0
    const plain =
      !hideRemoved &&
      !filtered.value &&
      (!sort.value || (field === 'index' && sort.value.direction === 'asc'))
    return plain ? null : { filters: filters.value, ...ordered, ...(hideRemoved ? { hideRemoved } : {}) }
  }

  async function recount(): Promise<void> {
    const id = listId.value
    if (!id) return
    const run = ++counting
    let count: number | null
    try {
      count = await listQueries().view(id, viewQuery() ?? {})
    } catch (error) {
      notify.error(
        `The list's rows could not be filtered: ${error instanceof Error ? error.message : String(error)}`,
      )
      return
    }
    if (run !== counting) return
    viewed = count !== null
    // The whole list is as many rows as its status counts add up to, or as its record says.
    matching.value = count ?? (total.value > 0 ? total.value : (list.value?.rowCount ?? 0))
    version.value += 1
  }

  function setFilter(facet: RowFacet, values: FacetValue[]): void {
    filters.value = { ...filters.value, [facet]: values }
    void recount()
  }

  function setSafeOnly(on: boolean): void {
    setFilter('emailStatus', on ? [...safeEmailStatuses] : [])
  }

  /** Shows the removed rows alone ("Removed rows"), or the list again. */
  function showRemoved(on: boolean): void {
    filters.value = on ? { status: [removedStatus] } : {}
    void recount()
  }

  /** Takes every filter off; the removed rows' view stays. */
  function clearFilters(): void {
    filters.value = showingRemoved.value ? { status: [removedStatus] } : {}
    void recount()
  }

  function setSort(next: GridSort | null): void {
    sort.value = next
    void recount()
  }

  function setHidden(keys: string[]): void {
    hidden.value = keys
    if (listId.value) localStorage.setItem(hiddenKey(listId.value), JSON.stringify(keys))
  }

  async function fetchRows(start: number, count: number): Promise<RowRecord[]> {
    const id = listId.value
    if (!id) return []
    const early =
      start === firstPage.start && count === firstPage.count && viewQuery() === null ? firstRows : null
    firstRows = null
    const rows = await (early ?? listQueries().rows(id, start, count))
    if (listId.value !== id) return rows
    if (warmed !== id) warmLater()
    return rows
  }

  /**
   * Reads the list's facet columns a moment after the grid last asked for rows, at an idle time:
   * read at once, the columns would slow the opening down (and the openings right after it), and
   * read while the grid scrolls (it asks for rows as they come into view), they take the cores its
   * frames need (a million rows' columns are a second of the worker's and the database's work).
   */
  function warmLater(): void {
    cancelWarm()
    warmTimer = setTimeout(() => {
      warmTimer = null
      if (typeof requestIdleCallback !== 'function') return warm()
      warmIdle = requestIdleCallback(
        () => {
          warmIdle = null
          warm()
        },
        { timeout: 1_000 },
      )
    }, warmAfterMs)
  }

  /**
   * Has the worker read the list's facet columns, so that a first filter is quick (a million rows'
   * columns take about a second to read). Called a moment after the grid last asked for rows
   * (`warmLater`), or at once when the user reaches for a filter.
   */
  function warm(): void {
    const id = listId.value
    if (!id || warmed === id) return
    cancelWarm()
    warmed = id
    listQueries()
      .warm(id)
      .catch(() => undefined)
  }

  /** Exports the list; a CSV file for a spreadsheet (formulas neutralised) unless `csvFor` says otherwise. */
  async function exportRows(format: ExportFormat, onlyFiltered: boolean, csvFor?: CsvFor): Promise<void> {
    if (!list.value || exporting.value !== null) return
    exporting.value = 0
    try {
      const file = await exportInWorkers(list.value, {
        format,
        ...(csvFor ? { csvFor } : {}),
        ...(onlyFiltered ? { filters: filters.value } : {}),
        onProgress: (written) => {
          exporting.value = written
        },
      })
      downloadFile(file)
      notify.success(`Exported ${file.rows.toLocaleString()} rows to ${file.fileName}.`)
      if (file.cut > 0) {
        notify.warning(
          `${file.cut.toLocaleString()} cells were longer than an Excel cell holds (32,767 characters) and were cut in ${file.fileName}; the CSV export keeps them whole.`,
        )
      }
    } catch (error) {
      notify.error(`The export failed: ${error instanceof Error ? error.message : String(error)}`)
    } finally {
      exporting.value = null
    }
  }

  return {
    listId,
    list,
    firstRowsIn,
    filters,
    sort,
    hidden,
    counts,
    matching,
    version,
    exporting,
    columns,
    visibleColumns,
    total,
    removed,
    showingRemoved,
    summary,
    filtered,
    narrowed,
    safeOnly,
    open,
    close,
    recount,
    setFilter,
    setSafeOnly,
    clearFilters,
    showRemoved,
    setSort,
    setHidden,
    fetchRows,
    warm,
    exportRows,
  }
})
