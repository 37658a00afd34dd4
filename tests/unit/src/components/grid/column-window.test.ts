import { describe, expect, it } from 'vitest'
import { columnSpan } from '@/components/grid/column-window'

const widths = [100, 200, 100, 300, 100, 100]

describe('columnSpan', () => {
  it('draws the columns in view and those within the overscan on each side', () => {
    expect(columnSpan(widths, 0, 250, 0)).toEqual({ start: 0, end: 2, before: 0 })
    expect(columnSpan(widths, 350, 100, 0)).toEqual({ start: 2, end: 4, before: 300 })
    expect(columnSpan(widths, 350, 100, 60)).toEqual({ start: 1, end: 4, before: 100 })
  })

  it('counts a column that only touches the viewport edge as out of view', () => {
    expect(columnSpan(widths, 100, 200, 0)).toEqual({ start: 1, end: 2, before: 100 })
  })

  it('ends at the last column and draws nothing without columns', () => {
    expect(columnSpan(widths, 700, 400, 0)).toEqual({ start: 4, end: 6, before: 700 })
    expect(columnSpan(widths, 650, 400, 0)).toEqual({ start: 3, end: 6, before: 400 })
    expect(columnSpan([], 0, 400)).toEqual({ start: 0, end: 0, before: 0 })
  })

  it('draws every column of a grid narrower than its viewport', () => {
    expect(columnSpan(widths, 0, 2_000)).toEqual({ start: 0, end: 6, before: 0 })
  })
})
