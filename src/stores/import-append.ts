import { computed, ref, shallowRef } from 'vue'
import type { ImportProblem } from '@domain/read/errors'
import type { Preview } from '@domain/read/preview'
import type { AppendTarget } from '@/db/import-rows'
import type { ListRecord } from '@/db/records'
import { appendRefusal, matchColumns, type ColumnMatch } from '@/db/list-append'

/**
 * The import dialog adding a file's rows to a list, not making one: the list, and how the file's
 * columns go into its columns (by name, or as the user chose), for the imports store.
 */
export function useImportAppend() {
  /** The list the file's rows are added to; null for an import of a new list. */
  const into = shallowRef<ListRecord | null>(null)
  /** The user's choice for each of the file's columns (a list's column, -1 a new one); null: by name. */
  const chosen = ref<number[] | null>(null)
  /** The file's columns, as the preview reads them. */
  const fileColumns = shallowRef<readonly string[]>([])

  const match = computed<ColumnMatch | null>(() =>
    into.value ? matchColumns(into.value.columns, fileColumns.value, chosen.value ?? undefined) : null,
  )

  /** Follows the preview: a file read with other columns (another header row, sheet) is matched anew. */
  function follow(preview: Preview): void {
    if (preview.columns.join('\u0001') !== fileColumns.value.join('\u0001')) chosen.value = null
    fileColumns.value = preview.columns
  }

  /** Sends column `column` of the file into the list's column `target` (-1: a new column). */
  function choose(column: number, target: number): void {
    const current = match.value
    if (!current || !into.value) return
    const own = into.value.columns.length
    const next = current.targets.map((at) => (at < own ? at : -1))
    // A list's column takes one of the file's: the column that had it becomes a new one.
    if (target >= 0) for (let at = 0; at < next.length; at++) if (next[at] === target) next[at] = -1
    next[column] = target
    chosen.value = next
  }

  /** Why the file cannot be added as matched, if it cannot: nothing of it would go into the list's columns. */
  const refusal = computed<ImportProblem | null>(() => {
    const list = into.value
    const current = match.value
    if (!list || !current) return null
    const busy = appendRefusal(list)
    if (busy) return { code: 'busy', message: busy }
    if (current.matched > 0) return null
    return {
      code: 'no_match',
      message: `None of this file’s columns is a column of “${list.name}” (${list.columns.slice(0, 6).join(', ')}${list.columns.length > 6 ? '…' : ''}): its rows would share no column with the list’s. Choose below which of the list’s columns each of its columns goes into, or import it as a new list.`,
    }
  })

  /** Where the run puts the file's rows, from the list's row `from` on. */
  function target(from: number): AppendTarget | null {
    const current = match.value
    if (!current) return null
    return { from, targets: current.targets, width: current.columns.length }
  }

  /** The list's columns after the append, with the file's cells past its header (`widest`) by position. */
  function widestOf(current: ColumnMatch, fileWidest: number): number {
    return fileWidest > current.targets.length
      ? current.columns.length + fileWidest - current.targets.length
      : 0
  }

  function reset(): void {
    into.value = null
    chosen.value = null
    fileColumns.value = []
  }

  return { into, match, chosen, follow, choose, refusal, target, widestOf, reset }
}
