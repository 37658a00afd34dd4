import { computed, shallowRef, type Ref } from 'vue'
import { columnSpan, type ColumnSpan } from './column-window'
import type { GridColumn } from '../../ui/grid-types'
import type { PinnedColumns } from './use-drawn-rows'

/**
 * The grid's column widths (as given, or as the user dragged them) and the columns in view: the
 * first `pinned` columns always, then those the horizontal scroll brings into view beside them.
 */
export function useGridColumns(
  props: Readonly<{ columns: GridColumn[]; pinned: number }>,
  scrollLeft: Ref<number>,
  viewportWidth: Ref<number>,
) {
  const widths = shallowRef<Record<string, number>>({})

  function widthOf(column: GridColumn): number {
    return widths.value[column.key] ?? column.width
  }

  const columnWidths = computed(() => props.columns.map(widthOf))
  const totalWidth = computed(() => columnWidths.value.reduce((sum, width) => sum + width, 0))
  /**
   * Where each pinned column stays, from the grid's left edge (px), and their width. Columns pinned
   * over more than half of a measured view are not pinned: dragged that wide, or in a narrow window,
   * they would leave too little room, or none, to scroll the other columns into.
   */
  const pinnedLefts = computed<PinnedColumns>((previous) => {
    const lefts: number[] = []
    let left = 0
    for (let at = 0; at < Math.min(props.pinned, props.columns.length); at++) {
      lefts.push(left)
      left += columnWidths.value[at]!
    }
    const next =
      viewportWidth.value > 0 && left > viewportWidth.value / 2
        ? { lefts: [], width: 0 }
        : { lefts, width: left }
    // The same places keep their object: the rows drawn are drawn again only when they move.
    const same =
      previous &&
      previous.width === next.width &&
      previous.lefts.length === next.lefts.length &&
      previous.lefts.every((at, index) => at === next.lefts[index])
    return same ? previous : next
  })
  const pinnedCount = computed(() => pinnedLefts.value.lefts.length)
  /**
   * The columns past the pinned ones that are in view: those the scrolled view shows right of the
   * pinned columns, which cover its left. `start` and `end` count every column; `before` is the width
   * of the columns scrolled past, between the pinned ones and `start`.
   */
  const span = computed<ColumnSpan>((previous) => {
    const pinned = pinnedCount.value
    const rest = columnSpan(
      columnWidths.value.slice(pinned),
      scrollLeft.value,
      Math.max(0, viewportWidth.value - pinnedLefts.value.width),
    )
    const next = { start: pinned + rest.start, end: pinned + rest.end, before: rest.before }
    const same = previous && previous.start === next.start && previous.end === next.end
    return same && previous.before === next.before ? previous : next
  })
  const shownColumns = computed(() =>
    pinnedCount.value === 0
      ? props.columns.slice(span.value.start, span.value.end)
      : [
          ...props.columns.slice(0, pinnedCount.value),
          ...props.columns.slice(span.value.start, span.value.end),
        ],
  )

  function onResizeStart(column: GridColumn, event: PointerEvent): void {
    const startX = event.clientX
    const startWidth = widthOf(column)
    const onMove = (move: PointerEvent) => {
      widths.value = { ...widths.value, [column.key]: Math.max(60, startWidth + move.clientX - startX) }
    }
    const onUp = () => {
      window.removeEventListener('pointermove', onMove)
      window.removeEventListener('pointerup', onUp)
    }
    window.addEventListener('pointermove', onMove)
    window.addEventListener('pointerup', onUp)
  }

  return { widthOf, columnWidths, totalWidth, span, shownColumns, pinnedLefts, onResizeStart }
}
