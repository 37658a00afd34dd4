import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import { notify } from '@/ui/notify'
import { listQueries } from '@/db/query-worker'
import {
  duplicateList,
  editCells,
  goToChange,
  listFromRows,
  listHistory,
  redo,
  removeRows,
  renameList,
  restoreRows,
  undo,
  type Changed,
} from '@/db/list-ops'
import type { ListOp, ListRecord } from '@/db/records'
import { knownToLibrary } from '@/db/library-client'
import { useListViewStore } from './list-view'
import { claim, listClaim, listHeldElsewhere } from './window-locks'

export { maxCellLength } from '@/db/list-ops'

/**
 * The user's changes to the list on screen: which rows are selected, cell edits, removals and
 * restores, renames, undo and redo, and its history. The rows are the list view's (`list-view.ts`);
 * each change goes through `src/db/list-ops.ts`, which records it.
 */
export const useListEditStore = defineStore('listEdit', () => {
  const view = useListViewStore()
  /** Selected rows, by their place in the view (what the grid numbers from 0). */
  const selected = shallowRef<ReadonlySet<number>>(new Set())
  /** Every row the view shows is selected (Ctrl/Cmd+A), however many: not held one by one. */
  const allShown = ref(false)
  /** Where a Shift-click's range starts. */
  const anchor = ref<number | null>(null)
  const history = shallowRef<ListOp[]>([])
  const busy = ref(false)
  /** Rows of the new list copied so far, while one is made of the rows shown. */
  const copying = ref<{ rows: number; of: number } | null>(null)
  let subscription: Subscription | null = null

  const selectedCount = computed(() => (allShown.value ? view.matching : selected.value.size))
  const canUndo = computed(() => history.value.some((op) => op.undone === 0 && op.undoable))
  const canRedo = computed(() => history.value.some((op) => op.undone === 1))

  // Another list, or another view of it (a filter, a sort): the selection was of the rows shown.
  watch(
    () => [view.listId, JSON.stringify(view.filters), JSON.stringify(view.sort)],
    () => clearSelection(),
  )
  watch(
    () => view.listId,
    (listId) => {
      subscription?.unsubscribe()
      subscription = null
      history.value = []
      if (!listId) return
      subscription = liveQuery(() => listHistory(listId)).subscribe({
        next: (ops) => {
          history.value = ops
        },
        error: (error: unknown) => notify.error(`The list's history could not be read: ${String(error)}`),
      })
    },
    { immediate: true },
  )

  function clearSelection(): void {
    selected.value = new Set()
    allShown.value = false
    anchor.value = null
  }

  /** A click on a row's number: it alone, a range from the last (`range`), or it added or taken (`toggle`). */
  function select(position: number, how: { range?: boolean; toggle?: boolean } = {}): void {
    if (how.range && anchor.value !== null) {
      const next = new Set(allShown.value ? [] : selected.value)
      const [from, to] = anchor.value <= position ? [anchor.value, position] : [position, anchor.value]
      for (let at = from; at <= to; at++) next.add(at)
      allShown.value = false
      selected.value = next
      return
    }
    if (how.toggle) {
      const next = new Set(selected.value)
      if (next.has(position)) next.delete(position)
      else next.add(position)
      allShown.value = false
      selected.value = next
    } else {
      allShown.value = false
      selected.value = new Set([position])
    }
    anchor.value = position
  }

  function selectAll(): void {
    if (view.matching === 0) return
    selected.value = new Set()
    allShown.value = true
    anchor.value = null
  }

  const isSelected = (position: number): boolean => allShown.value || selected.value.has(position)

  /** The row indexes of the selection, or of every row shown with `all`, in the view's order. */
  async function indexesOf(all: boolean): Promise<Int32Array> {
    const id = view.listId
    if (!id) return new Int32Array(0)
    const positions = await listQueries().indexes(id)
    const count = view.matching
    const at = (position: number) => (positions ? positions[position]! : position)
    if (all || allShown.value) {
      return positions ?? Int32Array.from({ length: count }, (_, index) => index)
    }
    return Int32Array.from(
      [...selected.value].sort((a, b) => a - b).filter((position) => position < count),
      at,
    )
  }

  /** Runs a change; a refusal is told to the user, a failure too. */
  async function change<T>(doing: () => Promise<Changed<T>>): Promise<T | null> {
    busy.value = true
    try {
      const done = await doing()
      if (!done.ok) {
        notify.error(done.message)
        return null
      }
      return done.value
    } catch (error) {
      notify.error(`The change could not be made: ${error instanceof Error ? error.message : String(error)}`)
      return null
    } finally {
      busy.value = false
    }
  }

  /** Sets a cell of the list's own columns; answers whether it was set. */
  async function editCell(index: number, column: number, value: string): Promise<boolean> {
    const id = view.listId
    if (!id) return false
    const done = await change(() => editCells(id, [{ index, column, value }], knownToLibrary()))
    return done !== null
  }

  async function removeSelected(): Promise<void> {
    const id = view.listId
    if (!id || selectedCount.value === 0) return
    const indexes = await indexesOf(false)
    const op = await change(() => removeRows(id, indexes))
    clearSelection()
    if (op) notify.success(`${op.label}. Undo brings ${op.rows === 1 ? 'it' : 'them'} back.`)
  }

  /** Restores the selected removed rows, or every one shown with `all`. */
  async function restore(all: boolean): Promise<void> {
    const id = view.listId
    if (!id) return
    const indexes = await indexesOf(all)
    if (indexes.length === 0) return
    const op = await change(() => restoreRows(id, indexes))
    clearSelection()
    if (op) notify.success(`${op.label}.`)
  }

  /** Renames a list (on its page or the lists page); answers whether the name is now the one given. */
  async function rename(listId: string, name: string): Promise<boolean> {
    let refused = false
    await change(async () => {
      const done = await renameList(listId, name)
      refused = !done.ok
      return done
    })
    return !refused
  }

  async function undoLast(): Promise<void> {
    const id = view.listId
    if (!id || busy.value) return
    const op = await change(() => undo(id))
    if (op) notify.info(`Undone: ${op.label}.`)
  }

  async function redoNext(): Promise<void> {
    const id = view.listId
    if (!id || busy.value) return
    const op = await change(() => redo(id))
    if (op) notify.info(`Redone: ${op.label}.`)
  }

  /** Goes back, or forward, to the list right after change `seq` (0: as it was imported). */
  async function goTo(seq: number): Promise<void> {
    const id = view.listId
    if (!id) return
    await change(() => goToChange(id, seq))
  }

  /** A new list of the rows shown, or of the selection if there is one. */
  async function listOfShown(name: string): Promise<ListRecord | null> {
    const id = view.listId
    if (!id) return null
    const indexes = await indexesOf(selectedCount.value === 0)
    // The list copied from is this window's meanwhile, so that no other deletes it or adds rows to
    // it; the new list is, until it is made: another takes it back only if it is cut off.
    const from = await claim(listClaim(id))
    if (!from) {
      notify.error(`${listHeldElsewhere}: wait for them, then make the list.`)
      return null
    }
    const made = crypto.randomUUID()
    const release = await claim(listClaim(made))
    copying.value = { rows: 0, of: indexes.length }
    try {
      return await change(() =>
        listFromRows(id, indexes, name, {
          id: made,
          onProgress: (rows, of) => (copying.value = { rows, of }),
        }),
      )
    } finally {
      copying.value = null
      release?.()
      from()
    }
  }

  async function duplicate(listId: string): Promise<ListRecord | null> {
    return change(() => duplicateList(listId))
  }

  return {
    copying,
    selected,
    allShown,
    selectedCount,
    history,
    busy,
    canUndo,
    canRedo,
    select,
    selectAll,
    clearSelection,
    isSelected,
    editCell,
    removeSelected,
    restore,
    rename,
    undoLast,
    redoNext,
    goTo,
    listOfShown,
    duplicate,
  }
})
