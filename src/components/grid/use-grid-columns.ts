import { computed, shallowRef, type Ref } from 'vue'
import { columnSpan, type ColumnSpan } from './column-window'
import type { GridColumn } from '../../ui/grid-types'

/** The grid's column widths (as given, or as the user dragged them) and the columns in view. */
export function useGridColumns(
  props: Readonly<{ columns: GridColumn[] }>,
  scrollLeft: Ref<number>,
  viewportWidth: Ref<number>,
) {
  const widths = shallowRef<Record<string, number>>({})

  function widthOf(column: GridColumn): number {
    return widths.value[column.key] ?? column.width
  }

  const columnWidths = computed(() => props.columns.map(widthOf))
  const totalWidth = computed(() => columnWidths.value.reduce((sum, width) => sum + width, 0))
  const span = computed<ColumnSpan>((previous) => {
    const next = columnSpan(columnWidths.value, scrollLeft.value, viewportWidth.value)
    const same = previous && previous.start === next.start && previous.end === next.end
    return same && previous.before === next.before ? previous : next
  })
  const shownColumns = computed(() => props.columns.slice(span.value.start, span.value.end))

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

  return { widthOf, columnWidths, totalWidth, span, shownColumns, onResizeStart }
}
