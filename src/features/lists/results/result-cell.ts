import { h, type FunctionalComponent } from 'vue'
import { NTag, NTooltip } from 'naive-ui'
import type { RowRecord } from '@/db/schema'
import type { GridColumn } from '@/ui/grid-types'
import { emailStatusInfo, emailStatusTone } from '@domain/email-status'
import { rowStatusInfo } from './row-status'

/**
 * One cell of a list's results grid: the row's status and its email status as tags (the email
 * status with its meaning on hover), any other column as its text. A functional component: no
 * instance per cell, as cheap as the grid's own markup while it scrolls.
 */
export const ResultCell: FunctionalComponent<{ row: RowRecord; column: GridColumn; text: string }> = ({
  row,
  column,
  text,
}) => {
  if (column.key === 'contact_email_address_status' && text)
    return h(
      NTooltip,
      { delay: 400 },
      {
        trigger: () =>
          h(
            NTag,
            { size: 'small', bordered: false, type: emailStatusTone(text) },
            () => emailStatusInfo(text).label,
          ),
        default: () => emailStatusInfo(text).meaning,
      },
    )
  if (column.key === 'status')
    return h(
      NTag,
      { size: 'small', bordered: false, type: row.status === 'found' ? 'success' : 'default' },
      () => rowStatusInfo(row.status).label,
    )
  return h('span', text)
}
ResultCell.props = ['row', 'column', 'text']
