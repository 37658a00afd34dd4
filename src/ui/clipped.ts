/**
 * A data-table column whose long cells are cut with "…" and shown whole on hover. Naive UI's
 * `performant-ellipsis` renders the tooltip only when the pointer arrives: the plain one mounts a
 * tooltip in every cell, which made a 20-row preview a 650 ms task (docs/performance.md).
 */
export const clipped = { ellipsis: { tooltip: true }, ellipsisComponent: 'performant-ellipsis' } as const
