import { computed, onBeforeUnmount, onMounted, ref } from 'vue'
import {
  firstRowAt,
  isScaled,
  scrollTopFor,
  slotCount,
  spacerHeight,
  visibleRange,
  type ScrollGeometry,
} from './scroll-model'

export const headerHeight = 36

/**
 * Where a grid is scrolled to and how big its viewport is, and from them which rows are in view and
 * where they are drawn. The viewport is measured when the browser lays it out.
 */
export function useGridScroll(props: Readonly<{ rowCount: number; rowHeight: number }>) {
  const scroller = ref<HTMLDivElement | null>(null)
  const viewportHeight = ref(0)
  const viewportWidth = ref(0)
  const scrollTop = ref(0)
  const scrollLeft = ref(0)

  const geometry = computed<ScrollGeometry>(() => ({
    rowCount: props.rowCount,
    rowHeight: props.rowHeight,
    viewportHeight: Math.max(props.rowHeight, viewportHeight.value - headerHeight),
  }))
  const firstRow = computed(() => firstRowAt(scrollTop.value, geometry.value))
  const start = computed(() => visibleRange(firstRow.value, geometry.value).start)
  const end = computed(() => visibleRange(firstRow.value, geometry.value).end)
  const slots = computed(() => slotCount(geometry.value))
  /**
   * Rows sit at their offset from a base row that moves a whole cycle of slots at a time, and one
   * transform on the row layer scrolls them all: a frame moves one element instead of every row.
   */
  const base = computed(() => start.value - (start.value % slots.value))
  const layerShift = computed(() => (base.value - firstRow.value) * props.rowHeight)
  const bodyHeight = computed(() => Math.min(geometry.value.viewportHeight, spacerHeight(geometry.value)))

  function scrollToRow(index: number): void {
    if (scroller.value) scroller.value.scrollTop = scrollTopFor(index, geometry.value)
  }

  /** Takes in the scroller's position after a scroll. */
  function readScroll(scrolled: HTMLDivElement): void {
    scrollTop.value = scrolled.scrollTop
    scrollLeft.value = scrolled.scrollLeft
  }

  /**
   * Past the browser's height limit a pixel of scrollbar is several rows, so the wheel would jump:
   * it moves by rows instead, as it does in a short list. Shift and the wheel scroll sideways, as the
   * browser does it.
   */
  function onWheel(event: WheelEvent): void {
    if (!isScaled(geometry.value) || !scroller.value || event.deltaY === 0 || event.shiftKey) return
    event.preventDefault()
    const pixels = event.deltaMode === 1 ? event.deltaY * props.rowHeight : event.deltaY
    scrollToRow(firstRow.value + pixels / props.rowHeight)
    scroller.value.scrollLeft += event.deltaX
  }

  let observer: ResizeObserver | null = null
  onMounted(() => {
    const measure = () => {
      viewportHeight.value = scroller.value?.clientHeight ?? 0
      viewportWidth.value = scroller.value?.clientWidth ?? 0
    }
    // The observer's first call comes once the page is laid out: measuring here would force a layout
    // of the whole page while it is still being built (the browser bench's `time to first rows`).
    observer = new ResizeObserver(measure)
    if (scroller.value) observer.observe(scroller.value)
  })
  onBeforeUnmount(() => observer?.disconnect())

  return {
    scroller,
    viewportWidth,
    scrollLeft,
    geometry,
    firstRow,
    start,
    end,
    slots,
    base,
    layerShift,
    bodyHeight,
    scrollToRow,
    readScroll,
    onWheel,
  }
}
