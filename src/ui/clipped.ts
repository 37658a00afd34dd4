/**
 * A data-table column whose long cells are cut with "…" and shown whole on hover. Naive UI's
 * `performant-ellipsis` renders the tooltip only when the pointer arrives: the plain one mounts a
 * tooltip in every cell, which made drawing a preview one long task of the page (the workbook
 * bench's `longest main-thread task, drop → preview`).
 */
export const clipped = { ellipsis: { tooltip: true }, ellipsisComponent: 'performant-ellipsis' } as const
