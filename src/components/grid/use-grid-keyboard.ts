import { computed, ref, type ComputedRef, type Ref } from 'vue'
import { maxFirstRow, type ScrollGeometry } from './scroll-model'
import type { DrawnRow } from './use-drawn-rows'

/**
 * The row the keyboard is on, shown while the grid has focus: the arrows, Page Up/Down, Home and End
 * move it (the view follows), Enter opens it as a click does. It starts at the first row in view.
 */
export function useGridKeyboard<T>(
  props: Readonly<{ rowCount: number; rowHeight: number }>,
  grid: {
    scroller: Ref<HTMLDivElement | null>
    geometry: ComputedRef<ScrollGeometry>
    firstRow: ComputedRef<number>
    drawn: ComputedRef<DrawnRow<T>[]>
    scrollToRow: (index: number) => void
  },
  open: (row: T, index: number, column?: string) => void,
) {
  const { scroller, geometry, firstRow, drawn, scrollToRow } = grid
  const active = ref<number | null>(null)
  const focused = ref(false)
  /** Rows wholly in view. */
  const fullRows = computed(() => Math.max(1, Math.floor(geometry.value.viewportHeight / props.rowHeight)))
  /** Whether the keyboard's row is in view; scrolled away (by the wheel), the keys go on from the rows in view. */
  const activeInView = computed(
    () =>
      active.value !== null &&
      active.value >= firstRow.value &&
      active.value < firstRow.value + fullRows.value,
  )

  function onKeydown(event: KeyboardEvent): void {
    // Keys on a column header are the header's (Enter sorts).
    if (event.target !== scroller.value || props.rowCount === 0) return
    const current = activeInView.value ? active.value! : firstRow.value
    if (event.key === 'Enter') {
      const row = drawn.value.find((item) => item.index === current)?.row
      if (row === undefined) return
      event.preventDefault()
      active.value = current
      open(row, current)
      return
    }
    const page = Math.max(1, fullRows.value - 1)
    const moves: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 0,
      End: props.rowCount - 1,
    }
    const target = moves[event.key]
    if (target === undefined) return
    event.preventDefault()
    moveTo(target)
  }

  /** Puts the keyboard's row at `target` (kept inside the rows), the view following it. */
  function moveTo(target: number): void {
    const next = Math.min(props.rowCount - 1, Math.max(0, Math.round(target)))
    active.value = next
    if (next < firstRow.value) scrollToRow(next)
    else if (next > firstRow.value + fullRows.value - 1)
      scrollToRow(Math.min(maxFirstRow(geometry.value), next - fullRows.value + 1))
  }

  /** Moves the keyboard's row by `delta` rows. */
  function moveBy(delta: number): void {
    moveTo((activeInView.value ? active.value! : firstRow.value) + delta)
  }

  function onFocus(): void {
    focused.value = true
    if (!activeInView.value) active.value = Math.min(firstRow.value, Math.max(0, props.rowCount - 1))
  }

  /** A click on a row; `column`, the key of the cell clicked. */
  function onRowClick(row: T | undefined, index: number, column?: string): void {
    active.value = index
    if (row !== undefined) open(row, index, column)
  }

  return { active, focused, onKeydown, onFocus, onRowClick, moveBy }
}
