import type { Router } from 'vue-router'

/**
 * Back and forward through the app's pages as a browser moves: Alt+Left and Alt+Right, and the
 * mouse's side buttons (buttons 3 and 4). The desktop app's window has no browser to do it, and in
 * the web host the app does it alike, the browser's own move held back so a press moves once. A move
 * that would leave the app (back from its first page) is not made. Alt with the arrows in a text
 * field is the field's (a word at a time on macOS).
 */
export function watchHistoryMoves(router: Router, target: Window = window): () => void {
  const state = () => (target.history.state ?? {}) as { back?: unknown; forward?: unknown }
  function move(step: -1 | 1): boolean {
    if (step < 0 ? !state().back : !state().forward) return false
    router.go(step)
    return true
  }
  function onKey(event: KeyboardEvent): void {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return
    if (editable(event.target)) return
    event.preventDefault()
    move(event.key === 'ArrowLeft' ? -1 : 1)
  }
  /** Buttons 3 and 4 are back and forward; their press is held back too, where the browser moves on it. */
  function onButton(event: MouseEvent): void {
    if (event.button !== 3 && event.button !== 4) return
    event.preventDefault()
    if (event.type === 'mouseup') move(event.button === 3 ? -1 : 1)
  }
  target.addEventListener('keydown', onKey)
  target.addEventListener('mousedown', onButton)
  target.addEventListener('mouseup', onButton)
  return () => {
    target.removeEventListener('keydown', onKey)
    target.removeEventListener('mousedown', onButton)
    target.removeEventListener('mouseup', onButton)
  }
}

function editable(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).closest !== 'function') return false
  return (
    (target as Element).closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]') !==
    null
  )
}
