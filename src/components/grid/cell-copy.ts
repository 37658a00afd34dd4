import { cutText, wholeText } from './draw-cells'

/**
 * A copy of a selection over several cells of the grid: each cell it touches whole, as it is stored,
 * not cut to its width as it shows, a tab between cells and a line a row, as a spreadsheet pastes
 * them; a selection inside one cell shown cut, its whole text. A selection inside one cell shown
 * whole copies as the browser copies it: what was selected of it.
 * Rows still being read are left out (their cells show another row's text, hidden).
 */
export function copyCells(event: ClipboardEvent, rows: Element): void {
  const selection = getSelection()
  if (!selection || selection.isCollapsed || !event.clipboardData) return
  const ranges = Array.from({ length: selection.rangeCount }, (_, at) => selection.getRangeAt(at))
  // A selection reaching past the rows (the toolbar above, say) copies as the browser copies it.
  if (!ranges.every((range) => rows.contains(range.commonAncestorContainer))) return
  const touches = (node: Node) => ranges.some((range) => range.intersectsNode(node))
  const lines: string[][] = []
  let cells = 0
  let cut = false
  for (const row of rows.children) {
    if (row.classList.contains('pending') || !touches(row)) continue
    const touched = [...row.children].filter(touches)
    if (touched.length === 0) continue
    lines.push(touched.map(wholeText))
    cells += touched.length
    if (touched.some((cell) => cutText(cell) !== null)) cut = true
  }
  if (cells < 2 && !cut) return
  event.clipboardData.setData('text/plain', lines.map((line) => line.join('\t')).join('\n'))
  event.preventDefault()
}
