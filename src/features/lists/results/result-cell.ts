import type { RowRecord } from '@/db/schema'
import type { GridColumn, GridTag } from '@/ui/grid-types'
import { emailStatusInfo, emailStatusTone } from '@domain/email-status'
import { rowStatusInfo } from './row-status'

/**
 * The tags of a list's results grid: the row's status, and its email status with its meaning on
 * hover; any other cell is its text (`null`).
 */
export function resultTag(row: RowRecord, column: GridColumn, text: string): GridTag | null {
  if (column.key === 'contact_email_address_status' && text) {
    const { label, meaning } = emailStatusInfo(text)
    return { label, tone: emailStatusTone(text), tip: meaning }
  }
  if (column.key === 'status')
    return { label: rowStatusInfo(row.status).label, tone: row.status === 'found' ? 'success' : 'default' }
  return null
}
