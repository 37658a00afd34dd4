import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ValuePicker, codeValues, decodeValues, spliceValues, valueAt, valueBounds } from '@/db/value-code'

/** What a value comes back as once coded, stored (structured clone, as an IndexedDB put) and read. */
function roundTrip(values: readonly unknown[]): unknown[] {
  const coded = codeValues(values)
  if (!coded) throw new Error('not coded')
  return decodeValues(structuredClone(coded), values.length)
}

describe('codeValues', () => {
  it('gives back every plain value as it was: strings of any letters, numbers, booleans, null, undefined, nesting', () => {
    const values: unknown[] = [
      'Zoë Ødegård',
      '',
      'emoji 👩‍💻, 漢字, a lone half \ud800 and \u0000',
      'a "quoted", comma\nand a line',
      0,
      1,
      -12.5,
      1e-7,
      2 ** 53 + 2,
      Number.MAX_VALUE,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      false,
      null,
      undefined,
      [],
      {},
      ['a', 1, null, [true, { deep: ['x'] }]],
      { index: 7, values: ['F', 'L'], result: { phones: [{ number: '+47 22 00 00 00', type: 'mobile' }] } },
      { 'a field with spaces': 1, 2: 'two', '': 'empty name', constructor: 'a word' },
    ]
    const back = roundTrip(values)
    expect(back).toEqual(values)
    expect(Number.isNaN(back[10])).toBe(true)
    // Fields come back in their order, and each object is its own.
    expect(Object.keys(back[19] as object)).toEqual(['index', 'values', 'result'])
    expect(Object.keys(back[20] as object)).toEqual(['2', 'a field with spaces', '', 'constructor'])
  })

  it('keeps holes as holes and undefined as undefined, in a list and as a field', () => {
    const values: unknown[] = []
    values[1] = { a: undefined, b: 1 }
    values[3] = undefined
    const back = roundTrip(values)
    expect(back).toHaveLength(4)
    expect(0 in back).toBe(false)
    expect(2 in back).toBe(false)
    expect(3 in back).toBe(true)
    expect(back[3]).toBeUndefined()
    expect(back[1]).toEqual({ a: undefined, b: 1 })
    expect(Object.keys(back[1] as object)).toEqual(['a', 'b'])
  })

  it('names each field once however many rows have it', () => {
    const rows = Array.from({ length: 1_000 }, (_, index) => ({
      index,
      status: 'found',
      result: { name: `P${index}` },
    }))
    const coded = codeValues(rows)!
    expect(coded.names).toEqual(['index', 'status', 'result', 'name'])
    expect(decodeValues(coded, rows.length)).toEqual(rows)
  })

  it('codes nothing it could not give back the same: the caller keeps those values as they are', () => {
    const sparse: unknown[] = ['a']
    sparse[2] = 'c'
    const proto = JSON.parse('{"__proto__": {"polluted": true}}') as unknown
    for (const odd of [
      new Date(0),
      new Map([[1, 2]]),
      new Uint8Array(2),
      sparse,
      -0,
      10n,
      Symbol('s'),
      () => 1,
      proto,
      new (class Person {
        name = 'x'
      })(),
      'x'.repeat(0xd800),
      Array.from({ length: 0xd800 }, () => 0),
    ])
      expect(codeValues([{ ok: 'yes' }, { odd }])).toBeNull()
    // At the largest lengths it can say, it still codes.
    const longest = 'y'.repeat(0xd7ff)
    expect(roundTrip([longest])).toEqual([longest])
    expect(roundTrip([Object.create(null) as object])).toEqual([{}])
  })

  it('reads a damaged shape as an error, not as wrong rows', () => {
    const coded = codeValues([{ a: 'b' }])!
    expect(() => decodeValues({ ...coded, shape: '\u0063' }, 1)).toThrow(/cannot be read/)
  })
})

/** A row as blocks hold them: its index first, then fields of any plain values, maybe a removal. */
const row = fc.record(
  {
    index: fc.nat(),
    values: fc.array(fc.string(), { maxLength: 6 }),
    status: fc.constantFrom('pending', 'found', 'not_found'),
    result: fc.option(
      fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
      {
        nil: undefined,
      },
    ),
    removedAt: fc.option(fc.nat(), { nil: undefined }),
    answers: fc.option(fc.record({ email: fc.nat() }), { nil: undefined }),
  },
  { requiredKeys: ['index', 'values', 'status'] },
)
/** A block's rows, some places empty (a hole). */
const block = fc
  .array(fc.option(row, { nil: null, freq: 6 }), { minLength: 1, maxLength: 12 })
  .map((rows) => {
    const sparse: unknown[] = []
    rows.forEach((one, at) => {
      if (one) sparse[at] = one
    })
    sparse.length = rows.length
    return sparse
  })

describe('ValuePicker', () => {
  it('copies values of several coded lists into the codes codeValues gives them, renumbered, a field left out', () => {
    fc.assert(
      fc.property(
        fc.array(block, { minLength: 1, maxLength: 3 }),
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 30 }),
        (blocks, picks) => {
          const maybe = blocks.map((rows) => codeValues(rows))
          // Values codeValues keeps as they are (-0, a field named __proto__) are not coded blocks.
          fc.pre(maybe.every((one) => one !== null))
          const coded = maybe as NonNullable<(typeof maybe)[number]>[]
          const bounds = coded.map((one, at) => valueBounds(one, blocks[at]!.length))
          const picker = new ValuePicker('index', 'removedAt')
          const expected: unknown[] = []
          for (const [which, place] of picks) {
            const at = which % blocks.length
            const item = place % blocks[at]!.length
            const number = 1_000 + expected.length
            const taken = picker.take(coded[at]!, bounds[at]!, item, number)
            const value = blocks[at]![item] as Record<string, unknown> | undefined
            expect(taken).toBe(value !== undefined)
            if (!value) continue
            const copy: Record<string, unknown> = { ...value, index: number }
            delete copy['removedAt']
            expected.push(copy)
          }
          if (expected.length === 0) return
          expect(picker.done()).toEqual(codeValues(expected))
        },
      ),
      { numRuns: 500 },
    )
  })
})

describe('spliceValues and valueAt', () => {
  it('replaces values among the others’ codes, and decodes as codeValues of the values replaced', () => {
    fc.assert(
      fc.property(block, fc.array(fc.tuple(fc.nat(), row), { minLength: 1, maxLength: 5 }), (rows, puts) => {
        const coded = codeValues(rows)
        fc.pre(coded !== null)
        const replaced = new Map<number, unknown>()
        const expected = rows.slice()
        for (const [place, value] of puts) {
          replaced.set(place % rows.length, value)
          expected[place % rows.length] = value
        }
        fc.pre([...replaced.values()].every((value) => codeValues([value]) !== null))
        const spliced = spliceValues(coded!, rows.length, replaced)
        expect(spliced).not.toBeNull()
        // The names of the block keep their places; a new one comes after them.
        expect(spliced!.names.slice(0, coded!.names.length)).toEqual(coded!.names)
        // Strictly: a hole stays a hole, a field set to undefined stays a field. (A clone gives the
        // rows made here, some without a prototype, the one decoded rows have.)
        const wanted = structuredClone(expected)
        const back = decodeValues(structuredClone(spliced!), rows.length)
        expect(back).toStrictEqual(wanted)
        const bounds = valueBounds(spliced!, rows.length)
        for (let at = 0; at < rows.length; at++)
          expect(valueAt(spliced!, bounds, at)).toStrictEqual(wanted[at])
      }),
      { numRuns: 500 },
    )
  })

  it('refuses a place past the values, and a value it cannot code', () => {
    const coded = codeValues([{ a: 1 }, { b: 2 }])!
    expect(spliceValues(coded, 2, new Map([[2, { c: 3 }]]))).toBeNull()
    expect(spliceValues(coded, 2, new Map([[0, { when: new Date(0) }]]))).toBeNull()
    expect(spliceValues(coded, 2, new Map())).toBe(coded)
  })
})
