/**
 * Maps a scrollbar position to a row and back. Browsers cap an element's height (a few million
 * pixels), so past that the scrollable spacer stays at `maxSpacerHeight` and one pixel of scroll
 * stands for several rows: any row count fits, and both ends of the scrollbar are both ends of the
 * list.
 */
export const maxSpacerHeight = 8_000_000

export interface ScrollGeometry {
  rowCount: number
  rowHeight: number
  /** Height of the visible body, header excluded. */
  viewportHeight: number
}

export function spacerHeight({ rowCount, rowHeight }: ScrollGeometry): number {
  return Math.min(rowCount * rowHeight, maxSpacerHeight)
}

export function isScaled(geometry: ScrollGeometry): boolean {
  return geometry.rowCount * geometry.rowHeight > maxSpacerHeight
}

export function maxScrollTop(geometry: ScrollGeometry): number {
  return Math.max(0, spacerHeight(geometry) - geometry.viewportHeight)
}

/** The (fractional) row at the top of the viewport when the list is scrolled to its end. */
export function maxFirstRow(geometry: ScrollGeometry): number {
  return Math.max(0, geometry.rowCount - geometry.viewportHeight / geometry.rowHeight)
}

/** The (fractional) row at the top of the viewport for a scroll position. */
export function firstRowAt(scrollTop: number, geometry: ScrollGeometry): number {
  const range = maxScrollTop(geometry)
  if (range === 0) return 0
  return (Math.min(Math.max(scrollTop, 0), range) / range) * maxFirstRow(geometry)
}

export function scrollTopFor(firstRow: number, geometry: ScrollGeometry): number {
  const last = maxFirstRow(geometry)
  if (last === 0) return 0
  return (Math.min(Math.max(firstRow, 0), last) / last) * maxScrollTop(geometry)
}

/**
 * Rows to draw: those in view, then as many below (one or two, cut off by the viewport) as make one a
 * slot. As many rows at any scroll position, so that a scroll hands the slots' elements on to other
 * rows and neither makes nor lets go of one (a made row was a dozen cells made and laid out).
 */
export function visibleRange(firstRow: number, geometry: ScrollGeometry): { start: number; end: number } {
  const start = Math.floor(firstRow)
  const end = Math.min(geometry.rowCount, start + slotCount(geometry))
  return { start, end: Math.max(start, end) }
}

/**
 * Row elements a grid keeps: the rows in view at most, and one more. A row is drawn in slot
 * `index % slotCount`, so scrolling hands a slot's element to the next row instead of replacing it.
 */
export function slotCount({ rowHeight, viewportHeight }: ScrollGeometry): number {
  return Math.ceil(viewportHeight / rowHeight) + 2
}
