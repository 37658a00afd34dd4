/**
 * Mends, as they appear, the few places where Naive UI's markup trips screen readers (and axe-core's
 * serious rules), none of which its props reach:
 * - a card's header is a `heading` wrapping another `heading`, neither with a level;
 * - icons are `role="img"` with no name, though every one here is decoration beside its words;
 * - a number input's −/+ buttons have no name; they are out of the tab order, and the input itself
 *   takes the arrow keys, so they are hidden from assistive technology rather than named;
 * - a select takes focus on an inner element with no name: it gets the select's own label, or its
 *   form item's.
 */
const mends: [selector: string, mend: (element: Element) => void][] = [
  ['.n-card-header[role="heading"]', (element) => element.setAttribute('role', 'none')],
  [
    '.n-card-header__main[role="heading"]:not([aria-level])',
    (element) => element.setAttribute('aria-level', '2'),
  ],
  [
    '.n-icon[role="img"]:not([aria-label]):not([aria-hidden])',
    (element) => element.setAttribute('aria-hidden', 'true'),
  ],
  [
    '.n-input-number .n-button[tabindex="-1"]:not([aria-hidden])',
    (element) => element.setAttribute('aria-hidden', 'true'),
  ],
  [
    '.n-select .n-base-selection[tabindex]:not([aria-label]), .n-select input:not([aria-label])',
    (element) => {
      const name =
        element.closest('.n-select')?.getAttribute('aria-label') ??
        element.closest('.n-form-item')?.querySelector('.n-form-item-label__text')?.textContent?.trim()
      if (name) element.setAttribute('aria-label', name)
    },
  ],
]

/** Every mend's selector at once: most elements added (a grid's cells as it scrolls) need none. */
const anyMend = mends.map(([selector]) => selector).join(', ')

export function mendAria(root: Element): void {
  if (!root.matches(anyMend) && root.querySelector(anyMend) === null) return
  for (const [selector, mend] of mends) {
    if (root.matches(selector)) mend(root)
    for (const element of root.querySelectorAll(selector)) mend(element)
  }
}

/** Mends the document now and every element added later. */
export function keepAriaMended(root: HTMLElement = document.body): () => void {
  mendAria(root)
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) mendAria(node)
    }
  })
  observer.observe(root, { childList: true, subtree: true })
  return () => observer.disconnect()
}
