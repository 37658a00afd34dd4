import { afterEach, describe, expect, it } from 'vitest'
import { catchEarlyDrops, takeEarlyDrop } from '@/ui/early-drop'

/** A drag event carrying files, as the browser dispatches one. */
function fileEvent(type: 'dragover' | 'drop', files: File[]): Event {
  const event = new Event(type, { bubbles: true, cancelable: true })
  const list = Object.assign([...files], { item: (at: number) => files[at] ?? null })
  Object.defineProperty(event, 'dataTransfer', { value: { types: ['Files'], files: list } })
  return event
}

afterEach(() => {
  takeEarlyDrop()
})

describe('a file dropped before the drop overlay has loaded', () => {
  it('is kept, not opened by the browser, and handed over once', () => {
    catchEarlyDrops()
    const file = new File(['First Name\nAda\n'], 'people.csv', { type: 'text/csv' })
    const over = fileEvent('dragover', [file])
    window.dispatchEvent(over)
    expect(over.defaultPrevented).toBe(true)
    const drop = fileEvent('drop', [file])
    window.dispatchEvent(drop)
    expect(drop.defaultPrevented).toBe(true)
    expect(takeEarlyDrop()?.map((kept) => kept.name)).toEqual(['people.csv'])
    expect(takeEarlyDrop()).toBeNull()
  })

  it('is no longer caught once the overlay has taken over', () => {
    catchEarlyDrops()
    expect(takeEarlyDrop()).toBeNull()
    const drop = fileEvent('drop', [new File(['x'], 'late.csv')])
    window.dispatchEvent(drop)
    expect(drop.defaultPrevented).toBe(false)
    expect(takeEarlyDrop()).toBeNull()
  })
})
