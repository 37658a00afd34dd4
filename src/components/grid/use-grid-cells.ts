import { nextTick, ref, type Ref } from 'vue'
import type { GridColumn } from '../../ui/grid-types'

/** A cell being edited: its row (the view's position), column, and where its box stands in the grid. */
export interface CellEditing {
  position: number
  column: GridColumn
  value: string
  box: { left: number; top: number; width: number; height: number }
  /** Where the grid was scrolled as the edit began: a scroll away from there ends it. */
  scrolled: { left: number; top: number }
}

/**
 * The grid's cell under the keyboard (with `cellFocus`): a column beside the keyboard's row
 * (`useGridKeyboard`). Left and Right move it, and the view follows it sideways. An editable cell
 * is edited in place: double-click, F2 or typing a character starts, Enter or Tab commits (and
 * moves down or right, as a spreadsheet does), Escape cancels, leaving the cell commits.
 */
export function useGridCells(
  props: Readonly<{ columns: GridColumn[]; cellFocus: boolean; pinned: number; clearOnDelete: boolean }>,
  grid: {
    root: Ref<HTMLElement | null>
    scroller: Ref<HTMLDivElement | null>
    active: Ref<number | null>
    widthOf: (column: GridColumn) => number
    /** Moves the keyboard's row by `delta`, the view following. */
    moveRow: (delta: number) => void
    /** The cell's value, as the editor starts from it. */
    valueOf: (position: number, column: GridColumn) => string | null
    commit: (position: number, column: GridColumn, value: string) => void
  },
) {
  const activeColumn = ref<string | null>(null)
  const editing = ref<CellEditing | null>(null)
  const editor = ref<HTMLInputElement | null>(null)

  const columnAt = (key: string | null) => props.columns.findIndex((column) => column.key === key)

  /** The column the keyboard starts on: the first past the pinned ones (the row's number). */
  function ensureColumn(): void {
    if (!props.cellFocus) return
    if (columnAt(activeColumn.value) < 0)
      activeColumn.value = props.columns[Math.min(props.pinned, props.columns.length - 1)]?.key ?? null
  }

  /** Scrolls sideways so that the column is wholly in view, past the pinned columns. */
  function reveal(key: string): void {
    const scroller = grid.scroller.value
    const at = columnAt(key)
    if (!scroller || at < props.pinned) return
    let pinnedWidth = 0
    let left = 0
    props.columns.forEach((column, index) => {
      if (index < props.pinned) pinnedWidth += grid.widthOf(column)
      if (index < at) left += grid.widthOf(column)
    })
    const width = grid.widthOf(props.columns[at]!)
    if (left - pinnedWidth < scroller.scrollLeft) scroller.scrollLeft = left - pinnedWidth
    else if (left + width > scroller.scrollLeft + scroller.clientWidth)
      scroller.scrollLeft = left + width - scroller.clientWidth
  }

  function moveColumn(delta: number): void {
    ensureColumn()
    const at = columnAt(activeColumn.value)
    const next = props.columns[Math.min(props.columns.length - 1, Math.max(0, at + delta))]
    if (!next) return
    activeColumn.value = next.key
    reveal(next.key)
  }

  /** The box of a drawn cell, in the grid's own coordinates; null when it is not drawn. */
  function cellBox(position: number, key: string): CellEditing['box'] | null {
    const root = grid.root.value
    const row = root?.querySelector<HTMLElement>(`.row:not(.pending)[data-row-index="${position}"]`)
    if (!root || !row) return null
    const cell = [...row.children].find((element) => (element as HTMLElement).dataset['column'] === key)
    if (!cell) return null
    const outer = root.getBoundingClientRect()
    const inner = cell.getBoundingClientRect()
    return {
      left: inner.left - outer.left,
      top: inner.top - outer.top,
      width: inner.width,
      height: inner.height,
    }
  }

  /** Starts editing the keyboard's cell, from its value or from a character typed (`typed`). */
  async function startEdit(typed?: string): Promise<boolean> {
    const position = grid.active.value
    ensureColumn()
    const column = props.columns[columnAt(activeColumn.value)]
    if (position === null || !column?.editable) return false
    reveal(column.key)
    // A column scrolled into view is drawn at the next frame or so: its cell is waited for.
    let box: CellEditing['box'] | null = null
    for (let frame = 0; frame < 5 && !box; frame++) {
      await nextTick()
      box = cellBox(position, column.key)
      if (!box) await new Promise((done) => requestAnimationFrame(() => done(undefined)))
    }
    const value = grid.valueOf(position, column)
    const scroller = grid.scroller.value
    if (value === null || !box || !scroller) return false
    editing.value = {
      position,
      column,
      value: typed ?? value,
      box,
      scrolled: { left: scroller.scrollLeft, top: scroller.scrollTop },
    }
    await nextTick()
    editor.value?.focus()
    if (typed === undefined) editor.value?.select()
    return true
  }

  /** Ends the edit: commits it unless cancelled, then the keyboard goes on from the grid (or moves). */
  function finish(how: 'commit' | 'cancel', move?: 'down' | 'right' | 'left'): void {
    const current = editing.value
    if (!current) return
    editing.value = null
    if (how === 'commit') grid.commit(current.position, current.column, editor.value?.value ?? current.value)
    if (move === 'down') grid.moveRow(1)
    else if (move === 'right') moveColumn(1)
    else if (move === 'left') moveColumn(-1)
    grid.scroller.value?.focus({ preventScroll: true })
  }

  function onEditorKeydown(event: KeyboardEvent): void {
    event.stopPropagation()
    if (event.key === 'Enter') {
      event.preventDefault()
      finish('commit', 'down')
    } else if (event.key === 'Tab') {
      event.preventDefault()
      finish('commit', event.shiftKey ? 'left' : 'right')
    } else if (event.key === 'Escape') {
      event.preventDefault()
      finish('cancel')
    }
  }

  /**
   * The keys of the keyboard's cell, before the row's: answers whether the key was the cell's.
   * Left and Right move it, F2 or a character edits it, Delete or Backspace empties it
   * (`clearOnDelete`).
   */
  function onCellKeydown(event: KeyboardEvent): boolean {
    if (!props.cellFocus || editing.value) return false
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault()
      moveColumn(event.key === 'ArrowLeft' ? -1 : 1)
      return true
    }
    if (event.key === 'F2') {
      event.preventDefault()
      void startEdit()
      return true
    }
    const editable = props.columns[columnAt(activeColumn.value)]
    const position = grid.active.value
    const plain = !event.ctrlKey && !event.metaKey && !event.altKey
    // Only a cell in view, and only once a press: a held key, or a row that moved under the
    // keyboard after a removal, empties nothing the user does not see.
    if (
      (event.key === 'Delete' || event.key === 'Backspace') &&
      props.clearOnDelete &&
      plain &&
      !event.repeat &&
      editable?.editable &&
      position !== null &&
      cellBox(position, editable.key) !== null
    ) {
      event.preventDefault()
      grid.commit(position, editable, '')
      return true
    }
    const typing = event.key.length === 1 && plain
    if (typing && editable?.editable) {
      event.preventDefault()
      void startEdit(event.key)
      return true
    }
    return false
  }

  /** The column of a cell element clicked, by its key. */
  function columnOfCell(target: EventTarget | null): GridColumn | null {
    const cell = (target as Element | null)?.closest?.('.cell') as HTMLElement | null
    const key = cell?.dataset['column']
    return props.columns.find((column) => column.key === key) ?? null
  }

  /**
   * The grid scrolled: an edit whose cell moved away ends, what was typed kept. The scroll that
   * brought its cell into view, which the browser reports after the edit began, is not such a move.
   */
  function onScrolled(): void {
    const current = editing.value
    const scroller = grid.scroller.value
    if (!current || !scroller) return
    const moved =
      Math.abs(scroller.scrollLeft - current.scrolled.left) > 1 ||
      Math.abs(scroller.scrollTop - current.scrolled.top) > 1
    if (moved) finish('commit')
  }

  return {
    activeColumn,
    onScrolled,
    editing,
    editor,
    ensureColumn,
    startEdit,
    finish,
    onEditorKeydown,
    onCellKeydown,
    columnOfCell,
  }
}
