/**
 * Settles once the page has drawn its first frame (a task after the first animation frame): what the
 * shell does not need waits for it, so that no code of the pages and no fetch of theirs comes
 * between the shell's first render and its painting.
 */
export const firstPaint: Promise<void> = new Promise((done) => {
  if (typeof requestAnimationFrame !== 'function') return done()
  requestAnimationFrame(() => setTimeout(done))
})
