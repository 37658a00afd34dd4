import type { GridColumn, GridTag } from '../../ui/grid-types'
import type { DrawnRow } from './use-drawn-rows'

/** Draws a cell as a tag instead of text: `null` for a cell of plain text. */
export type CellTag<T> = (row: T, column: GridColumn, text: string) => GridTag | null

/** What a cell element shows now: compared before any write, so a cell that stays is not touched. */
interface CellElement extends HTMLDivElement {
  drawnWidth?: number
  drawnText?: string
  drawnTag?: GridTag | null
}

/**
 * Writes a row's cells into its element: one `div.cell` a column in view, holding its text, or a
 * `span.tag` for a tag. Written straight into the elements rather than by Vue: on a scrolled frame of
 * a million-row list every row in view shows another row, and Vue's patch of each cell's element and
 * text cost 1.5–2 ms a frame more on this page's slowest machine (traced over 300 frames). Only what
 * changed is written. A row still being read (`shown` undefined) keeps what its element showed, hidden
 * under the placeholder (the grid's style).
 */
export function drawCells<T>(
  element: HTMLElement,
  item: DrawnRow<T>,
  widthOf: (column: GridColumn) => number,
  cellTag?: CellTag<T>,
): void {
  const { columns } = item
  while (element.childElementCount < columns.length) {
    const cell = document.createElement('div')
    cell.className = 'cell'
    element.append(cell)
  }
  while (element.childElementCount > columns.length) element.lastElementChild!.remove()
  const cells = element.children
  for (let at = 0; at < columns.length; at++) {
    const cell = cells[at] as CellElement
    const column = columns[at]!
    const width = widthOf(column)
    if (cell.drawnWidth !== width) {
      cell.style.width = `${width}px`
      cell.drawnWidth = width
    }
    if (item.shown === undefined) continue
    const text = item.texts[at] ?? ''
    const tag = cellTag?.(item.shown, column, text) ?? null
    if (tag) drawTag(cell, tag)
    else if (cell.drawnText !== text || cell.drawnTag) {
      const node = cell.firstChild
      // The cell's text node keeps its place and takes the new text: cheaper than a new node.
      if (node instanceof Text && node === cell.lastChild) node.data = text
      else cell.textContent = text
      cell.drawnText = text
      cell.drawnTag = null
    }
  }
}

function drawTag(cell: CellElement, tag: GridTag): void {
  const drawn = cell.drawnTag
  if (drawn && drawn.label === tag.label && drawn.tone === tag.tone && drawn.tip === tag.tip) return
  let span = cell.firstElementChild as HTMLSpanElement | null
  if (!drawn || !span) {
    cell.textContent = ''
    span = document.createElement('span')
    cell.append(span)
  }
  span.className = `tag ${tag.tone}`
  span.style.background = `var(--tag-color-${tag.tone})`
  span.style.color = `var(--tag-text-${tag.tone})`
  span.textContent = tag.label
  if (tag.tip) span.dataset['tip'] = tag.tip
  else delete span.dataset['tip']
  cell.drawnTag = tag
  cell.drawnText = undefined
}
