import { describe, expect, it } from 'vitest'
import { codedColumn } from '@/db/block-shape'

const decoded = <V>(column: { values: V[]; codes: Uint8Array | Uint16Array }): V[] =>
  [...column.codes].map((code) => column.values[code]!)

describe('codedColumn', () => {
  it('gives back every value in its place: runs, values met again, numbers and strings apart', () => {
    const all = ['pending', 'pending', 'found', 'pending', '', '', 'found', 0, 1, 0, '0', 'pending']
    const column = codedColumn<string | number>(all)
    expect(decoded(column)).toEqual(all)
    expect(column.values).toEqual(['pending', 'found', '', 0, 1, '0'])
    expect(column.codes).toBeInstanceOf(Uint8Array)
  })

  it('keeps two bytes a code past 256 values, and one value once however long its run', () => {
    const many = Array.from({ length: 1_000 }, (_, at) => `company ${at % 300}`)
    const wide = codedColumn(many)
    expect(wide.codes).toBeInstanceOf(Uint16Array)
    expect(wide.values).toHaveLength(300)
    expect(decoded(wide)).toEqual(many)
    const one = codedColumn(Array<string>(1_000).fill('pending'))
    expect(one.values).toEqual(['pending'])
    expect([...one.codes].every((code) => code === 0)).toBe(true)
  })
})
