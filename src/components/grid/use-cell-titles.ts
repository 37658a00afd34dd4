import { onBeforeUnmount, ref } from 'vue'

/** How long the pointer rests on a tag before its meaning shows (Naive UI's tooltip had 400 ms). */
export const tipDelayMs = 400

/** A tag's meaning, shown by the grid's one tooltip above the point `x`, `y` of the window. */
export interface CellTip {
  text: string
  x: number
  y: number
}

/**
 * A clipped cell shows its whole text on hover, and a tag with a meaning (`data-tip`) shows it in
 * the grid's tooltip after a moment. The title is set when the pointer arrives, and dropped on scroll
 * since the element then shows another row, rather than bound on every cell, which would write
 * hundreds of attributes on every scrolled frame; one tooltip serves every tag for the same reason.
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
    if (!target) return
    const text = target.dataset['tip']
    if (text) {
      timer = setTimeout(() => {
        const box = target.getBoundingClientRect()
        tip.value = { text, x: box.left + box.width / 2, y: box.top }
      }, tipDelayMs)
      return
    }
    if (target.hasAttribute('title') || target.scrollWidth <= target.clientWidth) return
    target.title = target.textContent ?? ''
    titled = target
  }

  onBeforeUnmount(() => clearTimeout(timer))

  return { tip, dropTitle, onPointerOver }
}
