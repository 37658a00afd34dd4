import type { GridColumn, GridTag } from '../../ui/grid-types'
import type { FitText } from './text-fit'
import type { DrawnRow } from './use-drawn-rows'

/** Draws a cell as a tag instead of text: `null` for a cell of plain text. */
export type CellTag<T> = (row: T, column: GridColumn, text: string) => GridTag | null

/**
 * How a cell shows that it names what has a page (`GridColumn.link`): `link` as a link, which a
 * click follows; `link-edit` more quietly, as a click there is the cell's (a Ctrl or Cmd click
 * follows it); '' not at all.
 */
type LinkLook = '' | 'link' | 'link-edit'

/** What a cell element shows now: compared before any write, so a cell that stays is not touched. */
interface CellElement extends HTMLDivElement {
  drawnWidth?: number
  /** The cell's whole text; it shows it cut to its width where it does not fit (`FitText`). */
  drawnText?: string
  drawnTag?: GridTag | null
  /** Whether the cell clips its text: where it could not be cut to fit. */
  drawnClip?: boolean
  /** Where a pinned cell stays from the grid's left edge; undefined for a cell that scrolls. */
  drawnPinned?: number
  /** The room left before the cell: the columns scrolled past, before the first cell after pinned ones. */
  drawnMargin?: number
  /** The key of the cell's column, also in `data-column`: a click or the keyboard's cell finds it so. */
  drawnKey?: string
  /** How the cell is drawn as a link (its column's `link`): plainly, or as an editable cell's. */
  drawnLink?: LinkLook
}

/** The whole text of a cell that shows it cut to its width; null for any other element. */
export function cutText(element: Element): string | null {
  const text = (element as CellElement).drawnText
  return text !== undefined && !(element as CellElement).drawnTag && element.textContent !== text
    ? text
    : null
}

/** The whole text of a cell as drawn: what it shows, or what it shows cut. */
export function wholeText(element: Element): string {
  return cutText(element) ?? element.textContent ?? ''
}

/**
 * Writes a row's cells into its element: one `div.cell` a column in view, holding its text, or a
 * `span.tag` for a tag. Written straight into the elements rather than by Vue: on a scrolled frame of
 * a million-row list every row in view shows another row, and Vue's patch of each cell's element and
 * text is work in every frame (the browser bench's `grid … scroll p95 frame`). Only what changed is
 * written. A row still being read (`shown` undefined) keeps what its element showed, hidden
 * under the placeholder (the grid's style). A cell's text is shown cut to its width less twice
 * `padding` where it does not fit (`fit.text`), so that no cell clips; a text that cannot be measured
 * marks its cell `clip` instead, as does every text until the font is known (a cell clipped then is
 * cut at its next drawing). A tag clips its own label. The row's pinned cells, its first, stay at
 * the grid's left edge (`pinned`, sticky) and the next cell starts past the columns scrolled by.
 */
export function drawCells<T>(
  element: HTMLElement,
  item: DrawnRow<T>,
  widthOf: (column: GridColumn) => number,
  cellTag?: CellTag<T>,
  fit?: { text: FitText | null; padding: number },
): void {
  const { columns, pinned } = item
  const pinnedCount = pinned.lefts.length
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
    if (cell.drawnKey !== column.key) {
      cell.dataset['column'] = column.key
      cell.drawnKey = column.key
    }
    const resized = cell.drawnWidth !== width
    if (resized) {
      cell.style.width = `${width}px`
      cell.drawnWidth = width
    }
    const look: LinkLook = column.link !== true ? '' : column.editable === true ? 'link-edit' : 'link'
    if ((cell.drawnLink ?? '') !== look) {
      cell.classList.toggle('link', look === 'link')
      cell.classList.toggle('link-edit', look === 'link-edit')
      cell.drawnLink = look
    }
    if (pinnedCount > 0 || cell.drawnPinned !== undefined || cell.drawnMargin !== undefined) {
      place(cell, pinned.lefts[at], at === pinnedCount ? item.before : 0)
    }
    if (item.shown === undefined) continue
    const text = item.texts[at] ?? ''
    const tag = cellTag?.(item.shown, column, text) ?? null
    if (tag) {
      drawTag(cell, tag)
      clip(cell, false)
    } else if (cell.drawnText !== text || cell.drawnTag || resized || (cell.drawnClip && fit?.text)) {
      const fitted = fit?.text?.(text, width - 2 * fit.padding) ?? null
      const shown = fitted ?? text
      const node = cell.firstChild
      // The cell's text node keeps its place and takes the new text: cheaper than a new node.
      if (node instanceof Text && node === cell.lastChild) {
        if (node.data !== shown) node.data = shown
      } else cell.textContent = shown
      cell.drawnText = text
      cell.drawnTag = null
      clip(cell, fitted === null)
    }
  }
}

/** Pins a cell at `left` (or lets it scroll, for undefined) and leaves `margin` before it. */
function place(cell: CellElement, left: number | undefined, margin: number): void {
  if (cell.drawnPinned !== left) {
    cell.classList.toggle('pinned', left !== undefined)
    cell.style.left = left === undefined ? '' : `${left}px`
    cell.drawnPinned = left
  }
  if ((cell.drawnMargin ?? 0) !== margin) {
    cell.style.marginLeft = margin === 0 ? '' : `${margin}px`
    cell.drawnMargin = margin
  }
}

function clip(cell: CellElement, clipped: boolean): void {
  if (cell.drawnClip === clipped) return
  cell.classList.toggle('clip', clipped)
  cell.drawnClip = clipped
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
