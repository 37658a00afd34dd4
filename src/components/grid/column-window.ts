/** The columns a grid draws for a horizontal scroll position, and the width of those left of them. */
export interface ColumnSpan {
  start: number
  end: number
  /** Summed width of the columns before `start` (past the pinned ones, in a grid that pins some), in pixels. */
  before: number
}

/**
 * Columns [start, end) intersecting the viewport widened by `overscan` pixels on each side: a
 * list has dozens of columns and a screen shows a handful, so drawing only those keeps every
 * scrolled frame to the cells a user can see.
 */
export function columnSpan(
  widths: readonly number[],
  scrollLeft: number,
  viewportWidth: number,
  overscan = 240,
): ColumnSpan {
  const from = scrollLeft - overscan
  const to = scrollLeft + viewportWidth + overscan
  let start = 0
  let before = 0
  while (start < widths.length && before + widths[start]! <= from) {
    before += widths[start]!
    start += 1
  }
  let end = start
  for (let right = before; end < widths.length && right < to; end += 1) right += widths[end]!
  return { start, end: Math.max(end, Math.min(start + 1, widths.length)), before }
}
