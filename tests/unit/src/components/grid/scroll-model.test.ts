import { describe, expect, it } from 'vitest'
import {
  firstRowAt,
  isScaled,
  maxScrollTop,
  maxSpacerHeight,
  scrollTopFor,
  slotCount,
  spacerHeight,
  visibleRange,
} from '@/components/grid/scroll-model'

const small = { rowCount: 1000, rowHeight: 30, viewportHeight: 600 }
const million = { rowCount: 1_000_000, rowHeight: 34, viewportHeight: 680 }

describe('scroll model', () => {
  it('is one pixel per pixel while the list fits under the height limit', () => {
    expect(isScaled(small)).toBe(false)
    expect(spacerHeight(small)).toBe(30_000)
    expect(firstRowAt(300, small)).toBe(10)
    expect(scrollTopFor(10, small)).toBe(300)
    expect(firstRowAt(maxScrollTop(small), small)).toBe(980)
  })

  it('keeps a million rows under the limit and reaches both ends', () => {
    expect(isScaled(million)).toBe(true)
    expect(spacerHeight(million)).toBe(maxSpacerHeight)
    expect(firstRowAt(0, million)).toBe(0)
    const end = firstRowAt(maxScrollTop(million), million)
    expect(end).toBe(1_000_000 - 20)
    expect(visibleRange(end, million)).toEqual({ start: 999_980, end: 1_000_000 })
    expect(firstRowAt(maxScrollTop(million) / 2, million)).toBeCloseTo(499_990, 5)
  })

  it('maps a row to a scroll position and back', () => {
    for (const row of [0, 1, 123_456, 999_980]) {
      expect(firstRowAt(scrollTopFor(row, million), million)).toBeCloseTo(row, 5)
    }
    expect(scrollTopFor(5_000_000, million)).toBe(maxScrollTop(million))
    expect(scrollTopFor(-3, million)).toBe(0)
  })

  it('handles lists shorter than the viewport and empty lists', () => {
    const short = { rowCount: 5, rowHeight: 30, viewportHeight: 600 }
    expect(maxScrollTop(short)).toBe(0)
    expect(firstRowAt(100, short)).toBe(0)
    expect(visibleRange(0, short)).toEqual({ start: 0, end: 5 })
    expect(visibleRange(0, { ...short, rowCount: 0 })).toEqual({ start: 0, end: 0 })
  })

  it('draws a row a slot at any scroll position, every row in view among them, no two in one slot', () => {
    for (const geometry of [small, million, { rowCount: 50, rowHeight: 34, viewportHeight: 524 }]) {
      const slots = slotCount(geometry)
      for (let first = 0; first < 40; first += 0.37) {
        const { start, end } = visibleRange(first, geometry)
        // Every slot, always: a scroll makes and lets go of no row element.
        expect(end - start).toBe(Math.min(slots, geometry.rowCount - start))
        expect(end).toBeGreaterThanOrEqual(
          Math.min(geometry.rowCount, Math.ceil(first + geometry.viewportHeight / geometry.rowHeight)),
        )
        const used = new Set(Array.from({ length: end - start }, (_, at) => (start + at) % slots))
        expect(used.size).toBe(end - start)
      }
    }
  })
})
