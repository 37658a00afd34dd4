import { describe, expect, it } from 'vitest'
import {
  parseRows,
  type BatchCells,
  type ParseControl,
  type ParseOptions,
  type ParseSummary,
  type RowBatch,
} from '../../../../../electron/domain/read/parse'

/**
 * Lines without a quote are cut by `parseRows` itself (`takePlain`), not by PapaParse: for files of
 * every kind, in every chunking, the rows, the summary and the cells kept for storage must read
 * exactly as PapaParse reads the same bytes (`plainLines: false`).
 */

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

interface Read {
  summary: ParseSummary | { failed: string }
  batches: RowBatch[]
}

async function read(
  bytes: Uint8Array,
  options: ParseOptions,
  chunkSize: number,
  control: ParseControl,
): Promise<Read> {
  const batches: RowBatch[] = []
  try {
    const summary = await parseRows(
      chunksOf(bytes, chunkSize),
      options,
      async (batch) => {
        batches.push(batch)
      },
      { batchSize: 3, ...control },
    )
    return { summary, batches }
  } catch (error) {
    return { summary: { failed: error instanceof Error ? error.message : String(error) }, batches }
  }
}

/** `BatchCells` read back: each cell, then the one character after it skipped. */
function cellsBack(cells: BatchCells): string[][] {
  const rows: string[][] = []
  let code = 0
  let from = 0
  while (code < cells.layout.length) {
    const count = cells.layout[code++]!
    const row: string[] = []
    for (let cell = 0; cell < count; cell++) {
      const to = from + cells.layout[code++]!
      row.push(cells.text.slice(from, to))
      from = to + 1
    }
    rows.push(row)
  }
  expect(from).toBe(cells.text.length)
  return rows
}

/** A small deterministic generator (mulberry32), so that a failure reads the same on every run. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const plainCells = [
  'a',
  'Zoë',
  '',
  ' ',
  '  x ',
  'Müller',
  '😀 ok',
  'Ærø',
  'an address, of sorts',
  'x'.repeat(30),
  '\t',
  '1',
]
const quotedCells = ['"Doe, Jane"', '"said ""hi"""', '"two\nlines"', '"a"b']

/** A file of `rows` lines: ragged, blank and white rows among them, quotes in some files only. */
function fileOf(next: () => number, delimiter: string, quotes: boolean): string {
  const width = 1 + Math.floor(next() * 5)
  const lineBreak = ['\n', '\r\n', '\r'][Math.floor(next() * 3)]!
  const lines: string[] = []
  const rows = 1 + Math.floor(next() * 14)
  for (let at = 0; at < rows; at++) {
    const kind = next()
    if (kind < 0.08) lines.push('')
    else if (kind < 0.14) lines.push(Array(width).fill(' ').join(delimiter))
    else if (kind < 0.18) lines.push(delimiter.repeat(width - 1))
    else {
      const count = kind < 0.3 ? Math.max(1, width + Math.floor(next() * 5) - 2) : width
      const cells: string[] = []
      for (let cell = 0; cell < count; cell++) {
        const pool = quotes && next() < 0.1 ? quotedCells : plainCells
        cells.push(pool[Math.floor(next() * pool.length)]!)
      }
      if (kind > 0.95) cells.push('', '')
      lines.push(cells.join(delimiter))
    }
  }
  return lines.join(lineBreak) + (next() < 0.5 ? lineBreak : '')
}

describe('lines without a quote, cut without PapaParse', () => {
  it('read as PapaParse reads them: rows, summary, batches and the cells kept, in every chunking', async () => {
    const next = random(20261128)
    let compared = 0
    for (let file = 0; file < 400; file++) {
      const delimiter = [',', ';', '\t', '|'][file % 4]!
      const text = fileOf(next, delimiter, file % 3 === 0)
      const bytes = new TextEncoder().encode(text)
      const options: ParseOptions = {
        encoding: 'utf-8',
        delimiter,
        hasHeader: file % 5 !== 0,
        width: 4,
      }
      for (const chunkSize of [1, 5, 64, 1 << 16]) {
        const papa = await read(bytes, options, chunkSize, { plainLines: false, keepCells: true })
        const plain = await read(bytes, options, chunkSize, { keepCells: true })
        const where = `file ${file} (${JSON.stringify(text)}), chunks of ${chunkSize}`
        expect(plain.summary, where).toEqual(papa.summary)
        expect(
          plain.batches.map((batch) => [batch.startIndex, batch.rows]),
          where,
        ).toEqual(papa.batches.map((batch) => [batch.startIndex, batch.rows]))
        for (const batch of [...plain.batches, ...papa.batches])
          expect(cellsBack(batch.cells!), where).toEqual(batch.rows)

        // Only the columns asked for need be cut: each of those is the cell PapaParse reads, and
        // any other a row holds is too.
        const picked = await read(bytes, options, chunkSize, { columns: [2, 0] })
        expect(picked.summary, where).toEqual(papa.summary)
        const pickedRows = picked.batches.flatMap((batch) => batch.rows)
        const papaRows = papa.batches.flatMap((batch) => batch.rows)
        expect(pickedRows.length, where).toBe(papaRows.length)
        pickedRows.forEach((row, at) => {
          expect(row.length, where).toBe(papaRows[at]!.length)
          for (const column of [0, 2])
            if (column < row.length) expect(row[column], where).toBe(papaRows[at]![column])
          row.forEach((cell, column) => cell === undefined || expect(cell, where).toBe(papaRows[at]![column]))
        })
        compared++
      }
    }
    expect(compared).toBe(1600)
  })

  it('keeps a plain row’s cells as the file has them, each followed by its delimiter or line break', async () => {
    const bytes = new TextEncoder().encode('first,last\nZoë,Ødegård\nAna,Brown\n')
    const { batches } = await read(
      bytes,
      { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 2 },
      1 << 16,
      {
        keepCells: true,
        batchSize: 10,
      },
    )
    expect(batches).toHaveLength(1)
    expect(batches[0]!.cells!.text).toBe('Zoë,Ødegård\nAna,Brown\n')
    expect([...batches[0]!.cells!.layout]).toEqual([2, 3, 7, 2, 3, 5])
  })

  it('gives a last row without a line break one after its last cell', async () => {
    const bytes = new TextEncoder().encode('a;b\nc;d')
    const { batches } = await read(
      bytes,
      { encoding: 'utf-8', delimiter: ';', hasHeader: false, width: 2 },
      3,
      {
        keepCells: true,
        batchSize: 10,
      },
    )
    expect(batches[0]!.rows).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ])
    expect(batches[0]!.cells!.text).toBe('a;b\nc;d\n')
  })

  it('reads a list of one column, whose lines hold no delimiter, every row one cell', async () => {
    const bytes = new TextEncoder().encode('email\n' + 'zoe@example.org\n'.repeat(200_000))
    const { summary, batches } = await read(
      bytes,
      { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 1 },
      1 << 20,
      { keepCells: true, columns: [0], batchSize: 20_000 },
    )
    expect((summary as ParseSummary).rows).toBe(200_000)
    expect(
      batches.every((batch) => batch.rows.every((row) => row.length === 1 && row[0] === 'zoe@example.org')),
    ).toBe(true)
    expect(cellsBack(batches[9]!.cells!)).toEqual(Array(20_000).fill(['zoe@example.org']))
  })

  it('refuses a line without a quote that runs past the reader’s limit, naming it as PapaParse’s reading does', async () => {
    const bytes = new TextEncoder().encode(`a,b\nc,d\ne,${'x'.repeat(5_000_000)}\nf,g\n`)
    const options: ParseOptions = { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 2 }
    const plain = await read(bytes, options, 1 << 20, {})
    const papa = await read(bytes, options, 1 << 20, { plainLines: false })
    expect(plain.summary).toEqual({
      failed: 'Line 3 is longer than 4 million characters: this does not look like a list of contacts.',
    })
    expect(papa.summary).toEqual(plain.summary)
  })

  it('counts lines across plain and quoted texts alike, so a message names the right line', async () => {
    const lines = ['name,note', 'a,b', ...Array(20).fill('c,d'), 'e', '"f', 'g"', 'h,i', 'j']
    const bytes = new TextEncoder().encode(lines.join('\n') + '\n')
    const options: ParseOptions = { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 2 }
    const plain = await read(bytes, options, 8, {})
    const papa = await read(bytes, options, 8, { plainLines: false })
    expect(plain.summary).toEqual(papa.summary)
    expect((plain.summary as ParseSummary).ragged.examples).toEqual([
      { line: 23, cells: 1 },
      { line: 24, cells: 1 },
      { line: 27, cells: 1 },
    ])
  })
})
