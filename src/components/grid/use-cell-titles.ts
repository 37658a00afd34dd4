/**
 * A clipped cell shows its whole text on hover. The title is set when the pointer arrives, and
 * dropped on scroll since the element then shows another row, rather than bound on every cell,
 * which would write hundreds of attributes on every scrolled frame.
 */
export function useCellTitles() {
  let titled: HTMLElement | null = null

  function dropTitle(): void {
    titled?.removeAttribute('title')
    titled = null
  }

  function onPointerOver(event: PointerEvent): void {
    dropTitle()
    const target = event.target instanceof HTMLElement ? event.target : null
    if (!target || target.hasAttribute('title') || target.scrollWidth <= target.clientWidth) return
    target.title = target.textContent ?? ''
    titled = target
  }

  return { dropTitle, onPointerOver }
}
