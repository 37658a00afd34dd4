import { describe, expect, it } from 'vitest'
import { SlotTable } from '@/db/slot-table'

const sorted = (slots: number[]) => [...slots].sort((a, b) => a - b)

describe('the slot table', () => {
  it('keeps every slot of a hash through growth and removals', () => {
    const table = new SlotTable()
    // Far past its first 1,024 places, with hashes that collide in the low bits.
    for (let slot = 0; slot < 5_000; slot++) table.add(((slot % 700) << 12) | 1, slot)
    expect(sorted(table.find((5 << 12) | 1))).toEqual(Array.from({ length: 8 }, (_, i) => 5 + 700 * i))
    table.remove((5 << 12) | 1, 705)
    table.remove((5 << 12) | 1, 99_999)
    expect(sorted(table.find((5 << 12) | 1))).toEqual([5, 1_405, 2_105, 2_805, 3_505, 4_205, 4_905])
    // A removed place is reused, and what lies past it is still found.
    table.add((5 << 12) | 1, 6_000)
    expect(sorted(table.find((5 << 12) | 1))).toEqual([5, 1_405, 2_105, 2_805, 3_505, 4_205, 4_905, 6_000])
    expect(table.find(123)).toEqual([])
    table.reserve(100_000)
    expect(table.moving).toBeGreaterThan(0)
    expect(table.find((699 << 12) | 1)).toHaveLength(7)
  })

  it('grows a few places at a time, every entry found and removable meanwhile', () => {
    const table = new SlotTable()
    const hashOf = (slot: number) => ((slot * 2_654_435_761) >>> 2) | 1
    // 512 entries fill 1,024 places to half: the next add doubles the table.
    for (let slot = 0; slot < 512; slot++) table.add(hashOf(slot), slot)
    expect(table.moving).toBe(0)
    table.add(hashOf(512), 512)
    // Moved a few places on that add, not all 512 entries.
    expect(table.moving).toBeGreaterThan(500)
    for (let slot = 0; slot <= 512; slot++) expect(table.find(hashOf(slot))).toContain(slot)
    // Removed while still in the outgrown table, and while already moved.
    table.remove(hashOf(400), 400)
    table.remove(hashOf(0), 0)
    const before = table.moving
    for (let slot = 513; slot < 533; slot++) table.add(hashOf(slot), slot)
    expect(before - table.moving).toBeLessThanOrEqual(20 * 8)
    expect(table.moving).toBeLessThan(before)
    for (let slot = 533; slot < 1_000; slot++) table.add(hashOf(slot), slot)
    expect(table.moving).toBe(0)
    expect(table.find(hashOf(400))).not.toContain(400)
    expect(table.find(hashOf(0))).not.toContain(0)
    for (let slot = 1; slot < 1_000; slot++)
      if (slot !== 400) expect(table.find(hashOf(slot))).toContain(slot)
  })

  it('finishes one growth before the next', () => {
    const table = new SlotTable()
    for (let slot = 0; slot < 513; slot++) table.add(slot + 1, slot)
    expect(table.moving).toBeGreaterThan(0)
    table.reserve(50_000)
    // Whatever was still moving is in; the reserve's own growth moves the rest a few at a time.
    for (let slot = 0; slot < 513; slot++) expect(table.find(slot + 1)).toEqual([slot])
    for (let slot = 513; slot < 1_000; slot++) table.add(slot + 1, slot)
    for (let slot = 0; slot < 1_000; slot++) expect(table.find(slot + 1)).toEqual([slot])
  })
})
