import { describe, expect, it } from 'vitest'
import { SlotTable } from '@/db/slot-table'

describe('the slot table', () => {
  it('keeps every slot of a hash through growth and removals', () => {
    const table = new SlotTable()
    // Far past its first 1,024 places, with hashes that collide in the low bits.
    for (let slot = 0; slot < 5_000; slot++) table.add(((slot % 700) << 12) | 1, slot)
    expect(table.find((5 << 12) | 1)).toEqual(Array.from({ length: 8 }, (_, i) => 5 + 700 * i))
    table.remove((5 << 12) | 1, 705)
    table.remove((5 << 12) | 1, 99_999)
    expect(table.find((5 << 12) | 1)).toEqual([5, 1_405, 2_105, 2_805, 3_505, 4_205, 4_905])
    // A removed place is reused, and what lies past it is still found.
    table.add((5 << 12) | 1, 6_000)
    expect(table.find((5 << 12) | 1).sort((a, b) => a - b)).toEqual([
      5, 1_405, 2_105, 2_805, 3_505, 4_205, 4_905, 6_000,
    ])
    expect(table.find(123)).toEqual([])
    table.reserve(100_000)
    expect(table.find((699 << 12) | 1)).toHaveLength(7)
  })
})
