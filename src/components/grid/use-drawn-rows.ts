import { computed, type ComputedRef, type Ref } from 'vue'
import type { ColumnSpan } from './column-window'
import type { GridColumn } from '../../ui/grid-types'

export interface DrawnRow<T> {
  index: number
  /** Rows are keyed by their slot, so a scrolled row patches an element instead of replacing it. */
  slot: number
  row: T | undefined
  top: number
  columns: GridColumn[]
  before: number
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
    loaded: Ref<number>
    rowAt: (index: number) => T | undefined
  },
) {
  const { start, end, base, slots, span, shownColumns, loaded, rowAt } = view
  /** Last frame's rows by index: a row still in view keeps its object, which `v-memo` skips. */
  let previousRows = new Map<number, DrawnRow<T>>()
  return computed(() => {
    void loaded.value
    const columns = shownColumns.value
    const { before } = span.value
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
        last.cellText === props.cellText
      kept.set(
        index,
        same
          ? last
          : {
              index,
              slot: index % slots.value,
              row,
              top,
              columns,
              before,
              cellText: props.cellText,
              texts: row === undefined ? [] : columns.map((column) => props.cellText(row, column)),
            },
      )
    }
    previousRows = kept
    return [...kept.values()]
  })
}
