import { describe, expect, it } from 'vitest'
import { copyCells } from '@/components/grid/cell-copy'
import { cutText, drawCells, wholeText, type CellTag } from '@/components/grid/draw-cells'
import { ellipsis, fitTextOf } from '@/components/grid/text-fit'
import type { DrawnRow } from '@/components/grid/use-drawn-rows'
import type { GridColumn } from '@/ui/grid-types'

/** Every character 7 px wide, the ellipsis too: a cell of 100 px (80 inside its padding) holds 11. */
const fit = { text: fitTextOf((text: string) => 7 * text.length), padding: 10 }
const columns: GridColumn[] = [
  { key: 'name', title: 'Name', width: 100 },
  { key: 'email', title: 'Email', width: 100 },
  { key: 'status', title: 'Status', width: 100 },
]

function item(
  texts: string[],
  widths = columns,
  place: Pick<DrawnRow<string[]>, 'before' | 'pinned'> = { before: 0, pinned: { lefts: [], width: 0 } },
): DrawnRow<string[]> {
  return {
    index: 0,
    slot: 0,
    row: texts,
    shown: texts,
    top: 0,
    columns: widths,
    ...place,
    cellText: (row, column) => row[columns.findIndex((c) => c.key === column.key)]!,
    texts,
  }
}

const tag: CellTag<string[]> = (_row, column, text) =>
  column.key === 'status' ? { label: text, tone: 'success' } : null
const widthOf = (column: GridColumn) => column.width

function cells(row: HTMLElement): HTMLElement[] {
  return [...row.children] as HTMLElement[]
}

describe('drawCells', () => {
  it('shows a text too wide for its cell cut, with nothing clipped, and keeps the whole text', () => {
    const row = document.createElement('div')
    drawCells(row, item(['Maria', 'maria.garcia@example.com', 'Found']), widthOf, tag, fit)
    const [name, email, status] = cells(row)
    expect(name!.textContent).toBe('Maria')
    expect(cutText(name!)).toBeNull()
    // 80 px less the margin: ten characters and the ellipsis.
    expect(email!.textContent).toBe(`maria.garc${ellipsis}`)
    expect(cutText(email!)).toBe('maria.garcia@example.com')
    expect(wholeText(email!)).toBe('maria.garcia@example.com')
    expect(status!.querySelector('.tag')!.textContent).toBe('Found')
    expect(cells(row).filter((cell) => cell.classList.contains('clip'))).toEqual([])
  })

  it('pins the first cells at their places and starts the next past the columns scrolled by', () => {
    const row = document.createElement('div')
    const texts = ['Maria', 'maria@x.io', 'Found']
    drawCells(
      row,
      item(texts, columns, { before: 700, pinned: { lefts: [0, 100], width: 200 } }),
      widthOf,
      tag,
      fit,
    )
    const [name, email, status] = cells(row)
    expect([name!.className, name!.style.left, name!.style.marginLeft]).toEqual(['cell pinned', '0px', ''])
    expect([email!.className, email!.style.left, email!.style.marginLeft]).toEqual([
      'cell pinned',
      '100px',
      '',
    ])
    expect([status!.classList.contains('pinned'), status!.style.marginLeft]).toEqual([false, '700px'])
    // One pinned now, the columns scrolled past 300 px: the second cell scrolls, after the gap.
    drawCells(
      row,
      item(texts, columns, { before: 300, pinned: { lefts: [0], width: 100 } }),
      widthOf,
      tag,
      fit,
    )
    expect(
      cells(row).map((cell) => [cell.classList.contains('pinned'), cell.style.left, cell.style.marginLeft]),
    ).toEqual([
      [true, '0px', ''],
      [false, '', '300px'],
      [false, '', ''],
    ])
    // No pin: nothing left of what was.
    drawCells(row, item(texts), widthOf, tag, fit)
    expect(cells(row).map((cell) => [cell.className, cell.style.left, cell.style.marginLeft])).toEqual([
      ['cell', '', ''],
      ['cell', '', ''],
      ['cell', '', ''],
    ])
  })

  it('cuts again when a column is resized, and when the row shows another', () => {
    const row = document.createElement('div')
    drawCells(row, item(['Maria', 'maria.garcia@example.com', 'Found']), widthOf, tag, fit)
    const wide = columns.map((column) => ({ ...column, width: column.key === 'email' ? 300 : column.width }))
    drawCells(row, item(['Maria', 'maria.garcia@example.com', 'Found'], wide), widthOf, tag, fit)
    expect(cells(row)[1]!.textContent).toBe('maria.garcia@example.com')
    expect(cutText(cells(row)[1]!)).toBeNull()
    drawCells(row, item(['Bartholomew Featherstonehaugh', 'b@x.io', 'Found']), widthOf, tag, fit)
    expect(cells(row)[0]!.textContent).toBe(`Bartholome${ellipsis}`)
    expect(cells(row)[1]!.textContent).toBe('b@x.io')
  })

  it('clips a text it cannot measure, and every text until the font is known', () => {
    const row = document.createElement('div')
    drawCells(row, item(['山田 太郎', 'b@x.io', 'Found']), widthOf, tag, fit)
    expect(cells(row)[0]!.textContent).toBe('山田 太郎')
    expect(cells(row)[0]!.classList.contains('clip')).toBe(true)
    expect(cells(row)[1]!.classList.contains('clip')).toBe(false)
    drawCells(row, item(['Maria', 'b@x.io', 'Found']), widthOf, tag, fit)
    expect(cells(row)[0]!.classList.contains('clip')).toBe(false)

    const early = document.createElement('div')
    drawCells(early, item(['Maria', 'maria.garcia@example.com', 'Found']), widthOf, tag, {
      text: null,
      padding: 10,
    })
    expect(cells(early)[1]!.textContent).toBe('maria.garcia@example.com')
    expect(cells(early).map((cell) => cell.classList.contains('clip'))).toEqual([true, true, false])
    // Drawn again once the font is known, the same row is cut and clips no more.
    drawCells(early, item(['Maria', 'maria.garcia@example.com', 'Found']), widthOf, tag, fit)
    expect(cells(early)[1]!.textContent).toBe(`maria.garc${ellipsis}`)
    expect(cells(early).map((cell) => cell.classList.contains('clip'))).toEqual([false, false, false])
  })
})

describe('copyCells', () => {
  function grid(rows: string[][]): HTMLElement {
    const layer = document.createElement('div')
    for (const texts of rows) {
      const row = document.createElement('div')
      drawCells(row, item(texts), widthOf, undefined, fit)
      layer.append(row)
    }
    document.body.append(layer)
    return layer
  }

  function copy(layer: HTMLElement): { text: string | undefined; prevented: boolean } {
    const data = new Map<string, string>()
    const event = {
      clipboardData: { setData: (type: string, value: string) => data.set(type, value) },
      defaultPrevented: false,
      preventDefault() {
        this.defaultPrevented = true
      },
    }
    copyCells(event as unknown as ClipboardEvent, layer)
    return { text: data.get('text/plain'), prevented: event.defaultPrevented }
  }

  it('copies the cells a selection touches whole, a tab between cells and a line a row', () => {
    const layer = grid([
      ['Maria', 'maria.garcia@example.com', 'Found'],
      ['Bartholomew Featherstonehaugh', 'b@x.io', 'Found'],
    ])
    const range = document.createRange()
    range.setStart(layer.children[0]!.children[1]!.firstChild!, 2)
    range.setEnd(layer.children[1]!.children[0]!.firstChild!, 3)
    getSelection()!.removeAllRanges()
    getSelection()!.addRange(range)
    expect(copy(layer)).toEqual({
      text: 'maria.garcia@example.com\tFound\nBartholomew Featherstonehaugh',
      prevented: true,
    })
    layer.remove()
  })

  it('copies a selection inside one cell shown cut as its whole text, and leaves any other to the browser', () => {
    const layer = grid([['Maria', 'maria.garcia@example.com', 'Found']])
    const select = (cell: number, from: number, to: number) => {
      const range = document.createRange()
      range.setStart(layer.children[0]!.children[cell]!.firstChild!, from)
      range.setEnd(layer.children[0]!.children[cell]!.firstChild!, to)
      getSelection()!.removeAllRanges()
      getSelection()!.addRange(range)
    }
    select(1, 1, 4)
    expect(copy(layer)).toEqual({ text: 'maria.garcia@example.com', prevented: true })
    select(0, 1, 4)
    expect(copy(layer)).toEqual({ text: undefined, prevented: false })
    // From the cells to past the rows: the browser's copy.
    const outside = document.createElement('p')
    outside.textContent = 'after the grid'
    document.body.append(outside)
    const range = document.createRange()
    range.setStart(layer.children[0]!.children[0]!.firstChild!, 0)
    range.setEnd(outside.firstChild!, 5)
    getSelection()!.removeAllRanges()
    getSelection()!.addRange(range)
    expect(copy(layer)).toEqual({ text: undefined, prevented: false })
    outside.remove()
    layer.remove()
  })
})
