import { computed, type ComputedRef, type Ref } from 'vue'
import type { ColumnSpan } from './column-window'
import type { GridColumn } from '../../ui/grid-types'

export interface PinnedColumns {
  lefts: readonly number[]
  width: number
}

export interface DrawnRow<T> {
  index: number
  /** Rows are keyed by their slot, so a scrolled row patches an element instead of replacing it. */
  slot: number
  row: T | undefined
  /**
   * The row whose cells the slot's elements hold: `row`, or while it is still being read the row
   * this slot last showed (hidden under the pending row's placeholder). A fling that outruns the
   * reads then swaps a class on each row instead of tearing down and rebuilding its cells.
   */
  shown: T | undefined
  top: number
  columns: GridColumn[]
  before: number
  /**
   * Where the pinned columns, the first of `columns`, stay from the grid's left edge (px), and their
   * width: they do not scroll sideways, and the columns after them start `before` past them.
   */
  pinned: PinnedColumns
  cellText: (row: T, column: GridColumn) => string
  texts: string[]
}

/** What a frame draws: the rows in view, each with the text of its cells in the columns in view. */
export function useDrawnRows<T>(
  props: Readonly<{ rowHeight: number; cellText: (row: T, column: GridColumn) => string }>,
  view: {
    start: ComputedRef<number>
    end: ComputedRef<number>
    base: ComputedRef<number>
    slots: ComputedRef<number>
    span: ComputedRef<ColumnSpan>
    shownColumns: ComputedRef<GridColumn[]>
    pinnedLefts: ComputedRef<PinnedColumns>
    loaded: Ref<number>
    rowAt: (index: number) => T | undefined
  },
) {
  const { start, end, base, slots, span, shownColumns, pinnedLefts, loaded, rowAt } = view
  /**
   * Last frame's rows by index: a row still in view keeps its object. (Vue's `v-memo` in a `v-for`
   * compares by position, so a scroll redraws every row all the same; `drawCells` then writes only
   * the cells that changed.)
   */
  let previousRows = new Map<number, DrawnRow<T>>()
  /** What each slot last showed, for the rows not read yet that take it. */
  const shownInSlot = new Map<number, { row: T; texts: string[]; columns: GridColumn[] }>()
  return computed(() => {
    void loaded.value
    const columns = shownColumns.value
    const { before } = span.value
    const pinned = pinnedLefts.value
    const kept = new Map<number, DrawnRow<T>>()
    for (let index = start.value; index < end.value; index += 1) {
      const row = rowAt(index)
      const top = (index - base.value) * props.rowHeight
      const last = previousRows.get(index)
      const same =
        last !== undefined &&
        last.row === row &&
        last.top === top &&
        last.columns === columns &&
        last.before === before &&
        last.pinned === pinned &&
        last.cellText === props.cellText
      if (same) {
        kept.set(index, last)
        continue
      }
      const slot = index % slots.value
      let shown: { row: T | undefined; texts: string[] } = { row, texts: [] }
      if (row !== undefined) {
        shown.texts = columns.map((column) => props.cellText(row, column))
        shownInSlot.set(slot, { row, texts: shown.texts, columns })
      } else {
        const earlier = shownInSlot.get(slot)
        if (earlier?.columns === columns) shown = earlier
      }
      kept.set(index, {
        index,
        slot,
        row,
        shown: shown.row,
        top,
        columns,
        before,
        pinned,
        cellText: props.cellText,
        texts: shown.texts,
      })
    }
    previousRows = kept
    // In the order of their indexes, as their elements stand in the page: text selected across rows
    // copies in order, and a screen reader reads them so.
    return [...kept.values()]
  })
}
