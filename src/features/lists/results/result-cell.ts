import type { RowRecord } from '@/db/records'
import type { GridColumn, GridTag } from '@/ui/grid-types'
import { emailStatusTag } from '@/components/state-tags'
import { rowStatusOf } from './row-status'

/**
 * The tags of a list's results grid: the row's status, and its email status with its meaning on
 * hover; any other cell is its text (`null`).
 */
export function resultTag(row: RowRecord, column: GridColumn, text: string): GridTag | null {
  if (column.key === 'contact_email_address_status' && text) return emailStatusTag(text)
  if (column.key === 'status') {
    if (row.removedAt !== undefined)
      return { label: 'Removed', tone: 'error', tip: 'You removed this row: "Removed rows" restores it.' }
    if (row.changedAt !== undefined && row.status === 'pending')
      return {
        label: 'Changed since answered',
        tone: 'warning',
        tip: 'Who this row is was edited after its answer: the next run sends it again, if it holds what a request needs.',
      }
    const { label, meaning } = rowStatusOf(row)
    return { label, tone: row.status === 'found' ? 'success' : 'default', tip: meaning }
  }
  return null
}
