import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createApp, h, nextTick, ref, type App, type Ref } from 'vue'
import DataGrid from '@/components/grid/DataGrid.vue'
import type { GridColumn, GridTag } from '@/ui/grid-types'

const columns: GridColumn[] = Array.from({ length: 30 }, (_, at) => ({
  key: `c${at}`,
  title: `C${at}`,
  width: 100,
}))

// happy-dom does no layout: the scroller reports the size a window would give it.
beforeAll(() => {
  for (const [name, size] of [
    ['clientHeight', 36 + 10 * 34],
    ['clientWidth', 800],
  ] as const) {
    Object.defineProperty(HTMLElement.prototype, name, {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('scroller') ? size : 0
      },
    })
  }
  // A browser calls an observer back once what it observes is laid out; the grid measures then.
  globalThis.ResizeObserver = class {
    constructor(private readonly callback: ResizeObserverCallback) {}
    observe(target: Element): void {
      setTimeout(() => this.callback([{ target } as ResizeObserverEntry], this), 0)
    }
    unobserve(): void {}
    disconnect(): void {}
  }
})

let app: App | undefined
afterEach(() => {
  app?.unmount()
  document.body.innerHTML = ''
})

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) {
    await new Promise((done) => setTimeout(done, 0))
    await nextTick()
  }
}

/**
 * `held`: pages past the first never arrive, as a slow read would. `wait`: a read of that start
 * waits for the promise given; `version`: the grid's version prop.
 */
async function mountGrid(
  rowCount: number,
  held = false,
  options: {
    version?: Ref<number>
    wait?: (start: number) => Promise<void> | undefined
    cellTag?: (row: number, column: GridColumn, text: string) => GridTag | null
    /** The `cellTag` prop as a ref, for a test that changes it. */
    tags?: Ref<((row: number, column: GridColumn, text: string) => GridTag | null) | undefined>
    /** The `pinned` prop. */
    pinned?: number
    /** Columns other than the thirty of 100 px. */
    columns?: GridColumn[]
    /** Other props and listeners (`cellFocus`, `onRowClick`…). */
    more?: Record<string, unknown>
  } = {},
) {
  const calls: [number, number][] = []
  const fetchRows = async (start: number, count: number) => {
    calls.push([start, count])
    if (held && start > 0) await new Promise(() => {})
    await options.wait?.(start)
    return Array.from({ length: Math.max(0, Math.min(count, rowCount - start)) }, (_, at) => start + at)
  }
  const host = document.createElement('div')
  document.body.append(host)
  app = createApp({
    render: () =>
      h(DataGrid<number>, {
        columns: options.columns ?? columns,
        rowCount,
        fetchRows,
        version: options.version?.value ?? 0,
        cellText: (row: number, column: GridColumn) => `${row}/${column.key}`,
        ...(options.cellTag ? { cellTag: options.cellTag } : {}),
        ...(options.tags?.value ? { cellTag: options.tags.value } : {}),
        ...(options.pinned ? { pinned: options.pinned } : {}),
        ...options.more,
      }),
  })
  app.mount(host)
  await settle()
  const scroller = host.querySelector<HTMLElement>('[data-test="grid-scroller"]')!
  const scroll = async (top: number, left = 0) => {
    scroller.scrollTop = top
    scroller.scrollLeft = left
    scroller.dispatchEvent(new Event('scroll'))
    await settle()
  }
  const row = (index: number) => host.querySelector<HTMLElement>(`[data-row-index="${index}"]`)
  const texts = (index: number) => [...row(index)!.querySelectorAll('.cell')].map((cell) => cell.textContent)
  return { host, calls, scroll, row, texts }
}

describe('DataGrid', () => {
  it('draws the page in view without waiting for the pages of its margin, only the columns in view', async () => {
    const grid = await mountGrid(10_000, true)
    expect(grid.calls[0]).toEqual([0, 100])
    // A thousand rows ahead (a block of the list's rows: read long before a steady scroll reaches it).
    expect(grid.calls.slice(1)).toEqual(Array.from({ length: 10 }, (_, at) => [100 * (at + 1), 100]))
    // Ten rows in view and two below: one a slot.
    expect(grid.host.querySelectorAll('.row')).toHaveLength(12)
    const shown = grid.texts(0)
    expect(shown[0]).toBe('0/c0')
    expect(shown.length).toBeLessThan(columns.length)
    expect(shown.length).toBeGreaterThanOrEqual(8)
  })

  it('hands a row that scrolls out its element to the next row, and keeps the elements of rows still in view', async () => {
    const grid = await mountGrid(10_000)
    const fifth = grid.row(5)
    const first = grid.row(0)
    const elements = [...grid.host.querySelectorAll('.row')]
    await grid.scroll(68)
    // No element made or let go; they stand in the page in the order of their rows.
    const after = [...grid.host.querySelectorAll<HTMLElement>('.row')]
    expect(new Set(after)).toEqual(new Set(elements))
    expect(after.map((element) => Number(element.dataset['rowIndex']))).toEqual(
      Array.from({ length: 12 }, (_, at) => at + 2),
    )
    expect(grid.row(5)).toBe(fifth)
    expect(grid.texts(5)[0]).toBe('5/c0')
    expect(grid.row(0)).toBeNull()
    expect(first?.dataset['rowIndex']).toBe('12')
    expect(grid.texts(12)[0]).toBe('12/c0')
  })

  it("draws a row still being read as a bar in each cell's place, under any horizontal scroll", async () => {
    const grid = await mountGrid(10_000, true)
    const layer = grid.host.querySelector<HTMLElement>('.layer')!
    /** The bars' left edges and sizes, as the row's background layers take them. */
    const bars = () => ({
      lefts: layer.style
        .getPropertyValue('--pending-positions')
        .split(', ')
        .map((position) => Number(/^(\d+)px 50%$/.exec(position)![1])),
      sizes: layer.style.getPropertyValue('--pending-sizes').split(', '),
      images: layer.style.getPropertyValue('--pending-images').match(/linear-gradient\(/g)?.length,
    })
    for (const left of [0, 2_000]) {
      await grid.scroll(34 * 5_000, left)
      const element = grid.host.querySelector<HTMLElement>('.row.pending')!
      expect(element).not.toBeNull()
      // One bar a cell drawn in the row, each 10 px into its cell (past the cell's padding), 60 % of
      // the rest of its width: the cells start after the row's padding, the columns scrolled past.
      const cells = element.querySelectorAll('.cell').length
      const before = parseFloat(element.style.paddingLeft)
      expect(before).toBe(left === 0 ? 0 : 1_700)
      const drawn = bars()
      expect(drawn.lefts).toEqual(Array.from({ length: cells }, (_, at) => before + 100 * at + 10))
      expect(drawn.sizes).toEqual(Array.from({ length: cells }, () => '48px 8px'))
      expect(drawn.images).toBe(cells)
    }
  })

  it('draws the columns under a horizontal scroll position', async () => {
    const grid = await mountGrid(1_000)
    await grid.scroll(0, 2_000)
    expect(grid.host.querySelector('[data-test="grid"]')!.classList.contains('sideways')).toBe(false)
    expect(grid.host.querySelectorAll('.pinned').length).toBe(0)
    const shown = grid.texts(0)
    expect(shown[0]).toBe('0/c17')
    expect(shown).toContain('0/c27')
    expect(shown).not.toContain('0/c5')
  })

  it('keeps the pinned columns in every row under a horizontal scroll, the columns in view beside them', async () => {
    const grid = await mountGrid(10_000, true, { pinned: 1 })
    await grid.scroll(0, 2_000)
    const row = grid.row(0)!
    const cells = [...row.querySelectorAll<HTMLElement>('.cell')]
    const shown = grid.texts(0)
    // The view's 800 px less the pinned column's 100 shows the rest from 2,000 px into them: c21 to
    // c27, and 240 px of overscan each side (from c18, 1,700 px past the pinned column).
    expect(shown[0]).toBe('0/c0')
    expect(shown[1]).toBe('0/c18')
    expect(shown).toContain('0/c28')
    expect(shown).not.toContain('0/c17')
    expect(row.style.paddingLeft).toBe('0px')
    expect([cells[0]!.classList.contains('pinned'), cells[0]!.style.left]).toEqual([true, '0px'])
    expect([cells[1]!.classList.contains('pinned'), cells[1]!.style.marginLeft]).toEqual([false, '1700px'])
    const heads = [...grid.host.querySelectorAll<HTMLElement>('.head')]
    expect(
      heads.filter((head) => head.classList.contains('pinned')).map((head) => head.dataset['column']),
    ).toEqual(['c0'])
    // Sticky (the grid's style) only while scrolled sideways; unscrolled, the grid is as one that pins nothing.
    const root = grid.host.querySelector<HTMLElement>('[data-test="grid"]')!
    expect(root.classList.contains('sideways')).toBe(true)
    await grid.scroll(0, 0)
    expect(root.classList.contains('sideways')).toBe(false)
    expect(grid.texts(0).slice(0, 2)).toEqual(['0/c0', '0/c1'])
    await grid.scroll(0, 2_000)
    // A row still being read: bars for the scrolled cells only, from past the pinned column and the gap.
    await grid.scroll(34 * 5_000, 2_000)
    const pending = grid.host.querySelector<HTMLElement>('.row.pending')!
    const scrolled = pending.querySelectorAll('.cell:not(.pinned)').length
    const layer = grid.host.querySelector<HTMLElement>('.layer')!
    const lefts = layer.style
      .getPropertyValue('--pending-positions')
      .split(', ')
      .map((position) => Number(/^(\d+)px 50%$/.exec(position)![1]))
    // The pinned cell's bar where it stands unscrolled (under the cell, scrolled sideways), then the rest.
    expect(lefts).toEqual([10, ...Array.from({ length: scrolled }, (_, at) => 100 + 1_700 + 100 * at + 10)])
  })

  it('pins nothing that would cover more than half the view, and leaves those columns to scroll', async () => {
    // Five columns of 100 px pinned in a view of 800: 500 px, more than half of it.
    const grid = await mountGrid(1_000, false, { pinned: 5 })
    await grid.scroll(0, 2_000)
    expect(grid.host.querySelectorAll('.pinned').length).toBe(0)
    expect(grid.host.querySelector('[data-test="grid"]')!.classList.contains('sideways')).toBe(false)
    expect(grid.texts(0)[0]).toBe('0/c17')
  })

  it('pins the columns there are when asked to pin more, if they fit', async () => {
    const few = await mountGrid(10, false, { pinned: 99, columns: columns.slice(0, 3) })
    expect(few.host.querySelectorAll('.head.pinned').length).toBe(3)
    expect(few.row(0)!.querySelectorAll('.cell.pinned').length).toBe(3)
  })

  it('moves a list past the height limit by rows under the wheel, and leaves Shift and the wheel to scroll sideways', async () => {
    const grid = await mountGrid(2_000_000)
    const scroller = grid.host.querySelector<HTMLElement>('[data-test="grid-scroller"]')!
    const down = new WheelEvent('wheel', { deltaY: 34 * 3, bubbles: true, cancelable: true })
    scroller.dispatchEvent(down)
    expect(down.defaultPrevented).toBe(true)
    expect(scroller.scrollTop).toBeGreaterThan(0)
    scroller.scrollTop = 0
    const sideways = new WheelEvent('wheel', { deltaY: 34 * 3, bubbles: true, cancelable: true })
    // happy-dom's WheelEvent is not a MouseEvent, and drops `shiftKey` from its init.
    Object.defineProperty(sideways, 'shiftKey', { value: true })
    scroller.dispatchEvent(sideways)
    expect(sideways.defaultPrevented).toBe(false)
    expect(scroller.scrollTop).toBe(0)
  })

  it('makes the pinned cells sticky as a sideways scroll is asked for, and not once back at the left edge', async () => {
    const grid = await mountGrid(1_000, false, { pinned: 1 })
    const root = grid.host.querySelector<HTMLElement>('[data-test="grid"]')!
    const scroller = grid.host.querySelector<HTMLElement>('[data-test="grid-scroller"]')!
    expect(root.classList.contains('sideways')).toBe(false)
    scroller.dispatchEvent(new WheelEvent('wheel', { deltaX: 40, bubbles: true, cancelable: true }))
    await nextTick()
    expect(root.classList.contains('sideways')).toBe(true)
    await grid.scroll(0, 0)
    expect(root.classList.contains('sideways')).toBe(false)
    // Up and down do not lean; the arrows sideways do.
    scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: 40, bubbles: true, cancelable: true }))
    await nextTick()
    expect(root.classList.contains('sideways')).toBe(false)
    scroller.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }))
    await nextTick()
    expect(root.classList.contains('sideways')).toBe(true)
  })

  it('fetches ahead of a steady scroll and only the rows in view after a jump', async () => {
    const grid = await mountGrid(100_000)
    for (let top = 34 * 40; top <= 34 * 120; top += 34 * 40) await grid.scroll(top)
    expect(grid.calls.map(([start]) => start)).toContain(300)
    grid.calls.length = 0
    await grid.scroll(34 * 50_010 + 17)
    expect(grid.calls).toEqual([[50_000, 100]])
    expect(grid.texts(50_015)[0]).toBe('50015/c0')
  })
  it('reads nothing under a fling until the view stays a frame, then only the rows where it stopped', async () => {
    const grid = await mountGrid(100_000)
    const callbacks: FrameRequestCallback[] = []
    vi.spyOn(globalThis, 'requestAnimationFrame').mockImplementation((callback) => callbacks.push(callback))
    // A frame as Chromium runs one: its scroll events first (the scroll below), then the callbacks
    // asked for until then; those they ask for run in the next frame.
    const frame = () => callbacks.splice(0).forEach((callback) => callback(0))
    try {
      grid.calls.length = 0
      // Five jumps of 10,000 rows, one a frame.
      for (let jump = 1; jump <= 5; jump++) {
        await grid.scroll(34 * (10_000 * jump + 10))
        frame()
        await settle()
      }
      expect(grid.calls).toEqual([])
      expect(grid.host.querySelectorAll('.row:not(.pending)')).toHaveLength(0)
      // The fling ends where it is: in the next frame, the rows in view are read, and only those.
      frame()
      await settle()
      expect(grid.calls).toEqual([[50_000, 100]])
      expect(grid.texts(50_015)[0]).toBe('50015/c0')
    } finally {
      vi.restoreAllMocks()
    }
  })

  it('keeps a row element and its cells while the row taking it is read, then fills them in place', async () => {
    let release = () => {}
    const grid = await mountGrid(100_000, false, {
      wait: (start) => (start >= 50_000 ? new Promise<void>((done) => (release = done)) : undefined),
    })
    const element = grid.row(3)!
    const cells = [...element.querySelectorAll('.cell')]
    expect(cells[0]!.textContent).toBe('3/c0')
    // A jump far down: the rows there are not read yet.
    await grid.scroll(34 * 50_010)
    const pending = grid.host.querySelector<HTMLElement>('.row.pending')!
    expect(pending).not.toBeNull()
    expect(grid.host.querySelectorAll('.row:not(.pending)')).toHaveLength(0)
    // The same elements, their cells kept (the placeholder bar hides them): nothing torn down.
    const slot = element.dataset['rowIndex']!
    expect(Number(slot)).toBeGreaterThanOrEqual(50_000)
    expect(element.classList.contains('pending')).toBe(true)
    expect([...element.querySelectorAll('.cell')]).toEqual(cells)
    expect(cells[0]!.textContent).toBe('3/c0')
    release()
    await vi.waitFor(() => expect(element.classList.contains('pending')).toBe(false))
    expect([...element.querySelectorAll('.cell')]).toEqual(cells)
    expect(cells[0]!.textContent).toBe(`${slot}/c0`)
  })

  it('fills the rows in view after a refresh that was slower than a scroll to the end', async () => {
    const version = ref(0)
    let releaseRefresh = () => {}
    let holding = false
    const grid = await mountGrid(10_000, false, {
      version,
      wait: (start) =>
        holding && start === 0 ? new Promise<void>((done) => (releaseRefresh = done)) : undefined,
    })
    // The rows change (a result arrived): the refresh reads the top again, slowly.
    holding = true
    version.value += 1
    await settle()
    // Meanwhile the user jumps to the end, which the old window fills.
    await grid.scroll(34 * 9_995)
    releaseRefresh()
    await settle()
    expect(grid.texts(9_999)[0]).toBe('9999/c0')
  })

  it('draws the cells a column gives as tags, with their tone and meaning, and text in the others', async () => {
    const grid = await mountGrid(1_000, false, {
      cellTag: (row, column) =>
        column.key !== 'c1'
          ? null
          : row % 2 === 0
            ? { label: `even ${row}`, tone: 'success', ...(row < 10 ? { tip: `row ${row} is even` } : {}) }
            : { label: `odd ${row}`, tone: 'warning' },
    })
    const tagOf = (index: number) => grid.row(index)!.querySelector<HTMLElement>('.cell:nth-child(2) > .tag')!
    expect(grid.texts(2).slice(0, 3)).toEqual(['2/c0', 'even 2', '2/c2'])
    expect(tagOf(2).className).toBe('tag success')
    expect(tagOf(2).style.color).toBe('var(--tag-text-success)')
    expect(tagOf(2).dataset['tip']).toBe('row 2 is even')
    expect(tagOf(3).className).toBe('tag warning')
    expect(tagOf(3).style.color).toBe('var(--tag-text-warning)')
    expect(tagOf(3).dataset['tip']).toBeUndefined()
    // The element of row 2 shows row 14 once scrolled (12 slots): its tag is rewritten, not stacked,
    // and row 14's has no meaning to show.
    const element = grid.row(2)!
    await grid.scroll(34 * 4)
    expect(element.dataset['rowIndex']).toBe('14')
    expect(element.querySelectorAll('.tag')).toHaveLength(1)
    expect(element.querySelector('.tag')!.textContent).toBe('even 14')
    expect(element.querySelector<HTMLElement>('.tag')!.dataset['tip']).toBeUndefined()
    const odd = grid.row(13)!.querySelector<HTMLElement>('.tag')!
    expect(odd.textContent).toBe('odd 13')
    expect(odd.dataset['tip']).toBeUndefined()
  })

  it("shows a tag's meaning in the grid's tooltip after the pointer rests on it, and drops it on leaving", async () => {
    const grid = await mountGrid(100, false, {
      cellTag: (row, column) =>
        column.key === 'c1' ? { label: `tag ${row}`, tone: 'info', tip: `meaning of ${row}` } : null,
    })
    const tag = grid.row(4)!.querySelector<HTMLElement>('.tag')!
    tag.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    await settle()
    expect(document.body.textContent).not.toContain('meaning of 4')
    await vi.waitFor(() => expect(document.body.textContent).toContain('meaning of 4'))
    grid
      .row(4)!
      .querySelector('.cell')!
      .dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    await vi.waitFor(() => expect(document.body.textContent).not.toContain('meaning of 4'))
    // Back on the tag, then out of the rows: gone.
    tag.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    await vi.waitFor(() => expect(document.body.textContent).toContain('meaning of 4'))
    grid.host.querySelector('.rows')!.dispatchEvent(new PointerEvent('pointerleave'))
    await vi.waitFor(() => expect(document.body.textContent).not.toContain('meaning of 4'))
  })

  it('turns a cell from a tag into text and back as its element takes other rows', async () => {
    const grid = await mountGrid(1_000, false, {
      cellTag: (row, column) =>
        column.key === 'c1' && row < 12 ? { label: `tag ${row}`, tone: 'info' } : null,
    })
    const element = grid.row(2)!
    const cell = () => element.querySelector('.cell:nth-child(2)')!
    expect(cell().querySelector('.tag')!.textContent).toBe('tag 2')
    await grid.scroll(34 * 4)
    expect(element.dataset['rowIndex']).toBe('14')
    expect(cell().querySelector('.tag')).toBeNull()
    expect(cell().textContent).toBe('14/c1')
    await grid.scroll(0)
    expect(element.dataset['rowIndex']).toBe('2')
    expect(cell().querySelectorAll('.tag')).toHaveLength(1)
    expect(cell().textContent).toBe('tag 2')
  })

  it('shows neither a title nor a meaning over a row still being read', async () => {
    let release = () => {}
    const grid = await mountGrid(100_000, false, {
      cellTag: (row, column) =>
        column.key === 'c1' ? { label: `tag ${row}`, tone: 'info', tip: `meaning of ${row}` } : null,
      wait: (start) => (start >= 50_000 ? new Promise<void>((done) => (release = done)) : undefined),
    })
    const element = grid.row(3)!
    const clipped = element.querySelector<HTMLElement>('.cell')!
    // happy-dom lays nothing out: this cell's text is wider than the cell, as a long name would be.
    Object.defineProperty(clipped, 'scrollWidth', { configurable: true, value: 500 })
    clipped.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    expect(clipped.title).toBe('3/c0')
    // A jump to rows not read yet: the title goes with the scroll.
    await grid.scroll(34 * 50_010)
    expect(element.classList.contains('pending')).toBe(true)
    expect(clipped.hasAttribute('title')).toBe(false)
    // The element still holds row 3's cells under its bar: neither is shown for it.
    clipped.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    expect(clipped.hasAttribute('title')).toBe(false)
    const tag = element.querySelector<HTMLElement>('.tag')!
    expect(tag.dataset['tip']).toBe('meaning of 3')
    tag.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    await new Promise((done) => setTimeout(done, 500))
    expect(document.body.textContent).not.toContain('meaning of')
    release()
    await vi.waitFor(() => expect(element.classList.contains('pending')).toBe(false))
  })

  it('shows no meaning for a tag redrawn away while the pointer rested on it', async () => {
    const tags = ref<((row: number, column: GridColumn) => GridTag | null) | undefined>((row, column) =>
      column.key === 'c1' ? { label: `tag ${row}`, tone: 'info', tip: `meaning of ${row}` } : null,
    )
    const grid = await mountGrid(100, false, { tags })
    const tag = grid.row(4)!.querySelector<HTMLElement>('.tag')!
    tag.dispatchEvent(new PointerEvent('pointerover', { bubbles: true }))
    // The cells stop being tags before the tooltip's delay is over: the tag leaves the page.
    tags.value = () => null
    await settle()
    expect(tag.isConnected).toBe(false)
    expect(grid.texts(4)[1]).toBe('4/c1')
    await new Promise((done) => setTimeout(done, 500))
    expect(document.body.textContent).not.toContain('meaning of 4')
  })

  it('follows a link cell on a click with cellFocus, an editable one on a Ctrl or Cmd click alone', async () => {
    const linked: GridColumn[] = [
      { key: 'name', title: 'Name', width: 100, link: true },
      { key: 'city', title: 'City', width: 100, link: true, editable: true },
      { key: 'note', title: 'Note', width: 100 },
    ]
    const rowClick = vi.fn()
    const follow = vi.fn()
    const grid = await mountGrid(20, false, {
      columns: linked,
      more: { cellFocus: true, onRowClick: rowClick, onFollow: follow },
    })
    const cell = (key: string) => grid.row(2)!.querySelector<HTMLElement>(`.cell[data-column="${key}"]`)!
    expect(cell('name').classList.contains('link')).toBe(true)
    // An editable cell's link is drawn apart: a plain click there is the cell's.
    expect(cell('city').classList.contains('link')).toBe(false)
    expect(cell('city').classList.contains('link-edit')).toBe(true)
    expect(cell('note').className).not.toMatch(/link/)

    cell('name').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }))
    expect(follow).toHaveBeenCalledWith(2, 2, linked[0])
    cell('city').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }))
    cell('note').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }))
    expect(follow).toHaveBeenCalledTimes(1)
    cell('city').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1, ctrlKey: true }))
    cell('city').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1, metaKey: true }))
    expect(follow).toHaveBeenCalledTimes(3)
    expect(follow).toHaveBeenLastCalledWith(2, 2, linked[1])
    // A click never opens the row: a double-click on a cell not edited does.
    expect(rowClick).not.toHaveBeenCalled()
    cell('note').dispatchEvent(new MouseEvent('dblclick', { bubbles: true, detail: 2 }))
    expect(rowClick).toHaveBeenCalledWith(2, 2)
  })

  it('empties the editable cell under the keyboard on Delete, only when asked, in view and pressed once', async () => {
    const editable: GridColumn[] = [
      { key: 'name', title: 'Name', width: 100, editable: true },
      { key: 'note', title: 'Note', width: 100 },
    ]
    const edit = vi.fn()
    const clearOnDelete = ref(true)
    const grid = await mountGrid(200, false, {
      columns: editable,
      more: {
        cellFocus: true,
        onEdit: edit,
        get clearOnDelete() {
          return clearOnDelete.value
        },
      },
    })
    const scroller = grid.host.querySelector<HTMLElement>('[data-test="grid-scroller"]')!
    const press = async (key: string, init: KeyboardEventInit = {}) => {
      scroller.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, ...init }))
      await settle()
    }
    grid
      .row(2)!
      .querySelector<HTMLElement>('.cell[data-column="name"]')!
      .dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }))
    await settle()
    await press('Delete')
    expect(edit).toHaveBeenCalledTimes(1)
    expect(edit).toHaveBeenLastCalledWith(2, 2, editable[0], '')
    await press('Backspace')
    expect(edit).toHaveBeenCalledTimes(2)
    // A held key, a key with Ctrl or Cmd: nothing.
    await press('Delete', { repeat: true })
    await press('Backspace', { ctrlKey: true })
    await press('Delete', { metaKey: true })
    expect(edit).toHaveBeenCalledTimes(2)
    // Not asked (rows are selected: Delete is theirs), or a cell that is not editable: nothing.
    clearOnDelete.value = false
    await settle()
    await press('Delete')
    clearOnDelete.value = true
    await settle()
    await press('ArrowRight')
    await press('Delete')
    expect(edit).toHaveBeenCalledTimes(2)
    // The keyboard's row scrolled out of view: nothing is emptied unseen.
    await press('ArrowLeft')
    await grid.scroll(100 * 34)
    await press('Delete')
    expect(edit).toHaveBeenCalledTimes(2)
  })

  it('opens a row on a click without cellFocus, saying which cell was clicked', async () => {
    const rowClick = vi.fn()
    const follow = vi.fn()
    const grid = await mountGrid(20, false, {
      columns: [
        { key: 'name', title: 'Name', width: 100, link: true },
        { key: 'note', title: 'Note', width: 100 },
      ],
      more: { onRowClick: rowClick, onFollow: follow },
    })
    const cell = (key: string) => grid.row(3)!.querySelector<HTMLElement>(`.cell[data-column="${key}"]`)!
    cell('name').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }))
    cell('note').dispatchEvent(new MouseEvent('click', { bubbles: true, detail: 1 }))
    expect(rowClick.mock.calls).toEqual([
      [3, 3, 'name'],
      [3, 3, 'note'],
    ])
    expect(follow).not.toHaveBeenCalled()
  })
})
