import { onScopeDispose, ref, type ComputedRef } from 'vue'
import { RowWindow, type FetchRows } from './row-window'

/**
 * The rows a grid has fetched for the rows in view, and reads of them as the view moves or the rows
 * behind it change. A failed read is shown, not thrown.
 */
export function useGridRows<T>(
  props: Readonly<{ rowCount: number; fetchRows: FetchRows<T> }>,
  start: ComputedRef<number>,
  end: ComputedRef<number>,
) {
  /** Bumped when fetched rows arrive: the rows themselves stay out of Vue's reactivity. */
  const loaded = ref(0)
  const failed = ref<string | null>(null)

  const newWindow = () => new RowWindow<T>((start, count) => props.fetchRows(start, count))
  let rows = newWindow()
  let refreshes = 0

  let lastStart = 0
  /** 1 or -1 while scrolling steadily down or up, 0 after a jump of pages at a time. */
  let heading = 1
  /**
   * The rows to have fetched: those in view and a margin, wider in the direction of a steady scroll
   * so that its next pages arrive before it reaches them: a thousand rows, a block of the list's, so
   * that a block's first read, many frames long, starts a block before the scroll needs it (with a
   * narrower margin a steady scroll shows unfilled rows: the browser bench's `grid … scroll`). After
   * a jump only the rows in view are read: the next frame will be elsewhere again, and every extra
   * page delays the rows shown.
   */
  function wanted(): [number, number] {
    const moved = start.value - lastStart
    lastStart = start.value
    if (moved !== 0) heading = Math.abs(moved) > 2 * rows.pageSize ? 0 : Math.sign(moved)
    const margin = (direction: number) => (heading === 0 ? 0 : heading === direction ? 1_000 : 50)
    return [Math.max(0, start.value - margin(-1)), Math.min(props.rowCount, end.value + margin(1))]
  }

  function onFailure(error: unknown): void {
    failed.value = error instanceof Error ? error.message : String(error)
  }

  /**
   * After a jump, the rows in view are read only once the view has stayed where it is for a frame: a
   * fling moves it every frame, and its reads would all arrive after it had moved on, every one of
   * them a block of the list read and its rows sent to the page, beside the frames the fling needs.
   * A frame dispatches its scroll events before its animation callbacks, so the first callback runs
   * in the frame of the jump itself; the second, in the next frame, after that frame's scroll.
   */
  let jumps = 0
  let disposed = false
  onScopeDispose(() => {
    disposed = true
  })

  /** Reads the rows the view needs: at once, or after a jump once the view stays (`jumps`). */
  function fill(): Promise<void> {
    const margin = wanted()
    if (heading !== 0 || typeof requestAnimationFrame !== 'function') return read(margin)
    const jump = ++jumps
    const at = start.value
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (!disposed && jump === jumps && start.value === at) void read([start.value, end.value])
      }),
    )
    return Promise.resolve()
  }

  /** The rows in view first, drawn as soon as they are in; then the margin, which nothing waits on. */
  async function read(margin: [number, number]): Promise<void> {
    try {
      if (await rows.ensure(start.value, end.value)) loaded.value += 1
      await rows.ensure(...margin)
      failed.value = null
    } catch (error) {
      onFailure(error)
    }
  }

  /**
   * Reads the rows in view again. The rows on screen stay until their replacements are in, so
   * results arriving during a run update the grid without a flash of empty rows.
   */
  async function refresh(): Promise<void> {
    const refresh = ++refreshes
    const next = newWindow()
    try {
      await next.ensure(...wanted())
    } catch (error) {
      onFailure(error)
      return
    }
    if (refresh !== refreshes) return
    rows = next
    failed.value = null
    loaded.value += 1
    // The view may have moved while the new window filled (a scroll to the end): fill what it shows now.
    void fill()
  }

  /** The row at `index` if it has been fetched; `loaded` tells when more have. */
  const rowAt = (index: number): T | undefined => rows.get(index)

  return { loaded, failed, rowAt, fill, refresh }
}
