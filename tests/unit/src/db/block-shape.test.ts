import { describe, expect, it } from 'vitest'
import {
  blockLength,
  blockSize,
  cellsRow,
  codeBlock,
  codedColumn,
  isCoded,
  isPacked,
  packBlock,
  packCells,
  rowBlockOf,
  unpackBlock,
} from '@/db/block-shape'
import type { RowBlock, StoredRow } from '@/db/records'
import { packIssues, type RowIssue } from '@domain/validation'
import type { BatchCells } from '@domain/read/parse'

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

describe('packBlock', () => {
  const cells = [
    ['Zoë', 'Ødegård', 'zoe@example.com', '', 'a "quoted", comma'],
    ['', '', '', '', ''],
    ['Jane', 'Doe', 'line one\nline two', '\u0000\u001e\u001f', 'emoji 👩‍💻 and 漢字', 'past the header'],
    ['Kurt'],
  ]
  const issues: RowIssue[][] = [[], ['missing_name', 'missing_domain'], ['duplicate', 'known'], []]

  it('gives back every row as an import stores it: each cell, ragged rows, each row its issues', () => {
    const packed = packBlock('list', 3, cells, issues)!
    expect(packed).toMatchObject({ listId: 'list', block: 3, size: 4 })
    expect(isPacked(packed)).toBe(true)
    const block = rowBlockOf(packed)
    expect(block).toEqual({
      listId: 'list',
      block: 3,
      rows: cells.map((values, at) => ({
        index: 3 * blockSize + at,
        values,
        issues: issues[at],
        skip: false,
        status: 'pending',
      })),
    })
    expect(blockLength(packed)).toBe(4)
    // Each row's issues are its own to change, as rows read from objects are.
    expect(block.rows[0]!.issues).not.toBe(block.rows[3]!.issues)
  })

  it('survives a structured clone (an IndexedDB put) and packs rows without issues', () => {
    const packed = packBlock('list', 0, cells)!
    expect(unpackBlock(structuredClone(packed)).rows.map((row) => [row.values, row.issues])).toEqual(
      cells.map((values) => [values, []]),
    )
  })

  it('leaves a block with a cell longer than its lengths can say to be written as rows', () => {
    const long = 'x'.repeat(0xd800)
    expect(packBlock('list', 0, [['a'], [long]])).toBeNull()
    expect(unpackBlock(packBlock('list', 0, [[long.slice(1)]])!).rows[0]!.values[0]).toHaveLength(0xd7ff)
  })

  it('leaves a block with a row of more cells than its count can say to be written as rows', () => {
    const wide = Array<string>(0xd800).fill('')
    expect(packBlock('list', 0, [['a'], wide])).toBeNull()
    const cells: BatchCells = {
      text: 'a\n' + '\n'.repeat(0xd800),
      layout: new Uint32Array([1, 1, 0xd800, ...Array<number>(0xd800).fill(0)]),
    }
    const made = packCells('list', 0, cells, { code: 0, text: 0 }, 2, new Uint8Array(2), 0)
    expect(made.block).toBeNull()
    expect(made.next).toEqual({ code: cells.layout.length, text: cells.text.length })
    expect(cellsRow(cells, { code: 2, text: 2 }).values).toEqual(wide)
  })
})

describe('packCells', () => {
  it('packs rows from the file’s text, each cell followed by one character, and reads them back whole', () => {
    const cells: BatchCells = {
      text: 'Zoë,Ødegård\nAna,,x\n',
      layout: new Uint32Array([2, 3, 7, 3, 3, 0, 1]),
    }
    const made = packCells('list', 0, cells, { code: 0, text: 0 }, 2, packIssues([[], ['duplicate']]), 0)
    expect(made.next).toEqual({ code: 7, text: cells.text.length })
    const block = structuredClone(made.block!)
    expect(block).toMatchObject({ separated: true, size: 2, text: cells.text })
    expect(unpackBlock(block).rows.map((row) => [row.values, row.issues])).toEqual([
      [['Zoë', 'Ødegård'], []],
      [['Ana', '', 'x'], ['duplicate']],
    ])
  })
})

describe('codeBlock', () => {
  const enriched = (index: number): StoredRow => ({
    index,
    values: [`F${index}`, `L${index}`, `f${index}@site.com`],
    issues: index % 5 === 0 ? ['duplicate'] : [],
    skip: index % 4 === 0,
    status: index % 3 === 0 ? 'not_found' : 'found',
    emailStatus: 'deliverable',
    ...(index % 2 === 0 ? { hasPhone: 1 as const } : {}),
    result: { contact_email_address: `f${index}@site.com`, contact_phones: [{ number: `+1 ${index}` }] },
    answers: { email: 1_764_000_000_000 + index },
  })

  it('gives back a changed block as it was, holes and all, through a structured clone', () => {
    const rows: StoredRow[] = []
    for (const index of [2_000, 2_001, 2_005, 2_999]) rows[index - 2_000] = enriched(index)
    const block: RowBlock = { listId: 'list', block: 2, rows }
    const coded = codeBlock(block)
    expect(isCoded(coded)).toBe(true)
    expect(isPacked(coded)).toBe(false)
    expect(coded).toMatchObject({ listId: 'list', block: 2, size: 1_000 })
    expect(blockLength(coded)).toBe(1_000)
    const back = rowBlockOf(structuredClone(coded))
    expect(back).toEqual(block)
    expect(back.rows).toHaveLength(1_000)
    expect(Object.keys(back.rows).map(Number)).toEqual([0, 1, 5, 999])
  })

  it('leaves a block with a row it cannot code as rows', () => {
    const block: RowBlock = {
      listId: 'list',
      block: 0,
      rows: [enriched(0), { ...enriched(1), values: ['x'.repeat(0xd800)] }],
    }
    expect(codeBlock(block)).toBe(block)
    expect(rowBlockOf(codeBlock(block))).toBe(block)
  })
})
