import { onBeforeUnmount, ref } from 'vue'
import { cutText } from './draw-cells'

/** How long the pointer rests on a tag before its meaning shows, as the status tags' tooltips waited. */
export const tipDelayMs = 400

/** A tag's meaning, shown by the grid's one tooltip above the point `x`, `y` of the window. */
export interface CellTip {
  text: string
  x: number
  y: number
}

/**
 * A cell showing its text cut or clipped shows the whole of it on hover, and a tag with a meaning
 * (`data-tip`) shows it in the grid's tooltip after a moment. The title is set when the pointer
 * arrives, and dropped on scroll since the element then shows another row, rather than bound on every
 * cell, which would write hundreds of attributes on every scrolled frame; one tooltip serves every
 * tag for the same reason.
 */
export function useCellTitles() {
  let titled: HTMLElement | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  const tip = ref<CellTip | null>(null)

  function dropTitle(): void {
    titled?.removeAttribute('title')
    titled = null
    clearTimeout(timer)
    tip.value = null
  }

  function onPointerOver(event: PointerEvent): void {
    dropTitle()
    const target = event.target instanceof HTMLElement ? event.target : null
    // A row still being read shows a bar over what its element last showed: nothing of it to explain.
    if (!target || target.closest('.pending')) return
    if (target.dataset['tip']) {
      timer = setTimeout(() => {
        // Read when it shows: the rows may have been redrawn under a pointer at rest meanwhile.
        const text = target.isConnected ? target.dataset['tip'] : undefined
        if (!text) return
        const box = target.getBoundingClientRect()
        tip.value = { text, x: box.left + box.width / 2, y: box.top }
      }, tipDelayMs)
      return
    }
    if (target.hasAttribute('title')) return
    const cut = cutText(target)
    if (cut === null && target.scrollWidth <= target.clientWidth) return
    target.title = cut ?? target.textContent ?? ''
    titled = target
  }

  onBeforeUnmount(() => clearTimeout(timer))

  return { tip, dropTitle, onPointerOver }
}
