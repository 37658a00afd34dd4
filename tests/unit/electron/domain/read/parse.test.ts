import { describe, expect, it } from 'vitest'
import { ImportError } from '../../../../../electron/domain/read/errors'
import {
  blobChunks,
  parseRows,
  type ParseOptions,
  type RowBatch,
} from '../../../../../electron/domain/read/parse'
import {
  buildPreview,
  longSampleBytes,
  sampleBytes,
  wantsLongSample,
} from '../../../../../electron/domain/read/preview'
import { detectDelimiter, uniqueHeaders } from '../../../../../electron/domain/read/sniff'

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size)
}

const utf8 = (text: string) => new TextEncoder().encode(text)

async function parseAll(bytes: Uint8Array, options: Partial<ParseOptions> = {}, chunkSize = 7) {
  const batches: RowBatch[] = []
  const summary = await parseRows(
    chunksOf(bytes, chunkSize),
    { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 0, ...options },
    async (batch) => {
      batches.push(batch)
    },
    { batchSize: 2 },
  )
  return { summary, rows: batches.flatMap((batch) => batch.rows), batches }
}

async function failure(promise: Promise<unknown>): Promise<ImportError> {
  try {
    await promise
  } catch (error) {
    if (error instanceof ImportError) return error
    throw error
  }
  throw new Error('expected the import to fail')
}

describe('parseRows', () => {
  it('keeps a multi-byte character whole when a chunk boundary splits it, at every offset', async () => {
    const text = 'name,city\nZoë 😀 Ærø,Škofja Loka\n'
    const bytes = utf8(text)
    for (let size = 1; size <= 6; size++) {
      const { rows } = await parseAll(bytes, {}, size)
      expect(rows).toEqual([['Zoë 😀 Ærø', 'Škofja Loka']])
    }
  })

  it('keeps a UTF-16 character whole across chunks', async () => {
    const bytes = new Uint8Array(Buffer.from('\uFEFFa,b\nç😀,x\n', 'utf16le'))
    const { rows } = await parseAll(bytes, { encoding: 'utf-16le' }, 3)
    expect(rows).toEqual([['ç😀', 'x']])
  })

  it('reads quoted fields with delimiters, doubled quotes and line breaks, and counts lines', async () => {
    const text = 'name,note\r\n"Doe, Jane","She said ""hi""\r\nthen left"\r\nBob,plain\r\n'
    const { rows, summary } = await parseAll(utf8(text), {}, 5)
    expect(rows).toEqual([
      ['Doe, Jane', 'She said "hi"\r\nthen left'],
      ['Bob', 'plain'],
    ])
    expect(summary.rows).toBe(2)
  })

  it('gives back a quoted cell’s line breaks as written, CRLF as CRLF (csv-spectrum newlines_crlf)', async () => {
    const text = 'a,b,c\r\n1,2,3\r\n"Once upon \r\na time",5,6\r\n7,8,9\r\n'
    for (const chunkSize of [1, 2, 3, 5, 17, 64]) {
      const { rows, summary } = await parseAll(utf8(text), {}, chunkSize)
      expect(rows, `chunks of ${chunkSize}`).toEqual([
        ['1', '2', '3'],
        ['Once upon \r\na time', '5', '6'],
        ['7', '8', '9'],
      ])
      expect(summary.header).toEqual(['a', 'b', 'c'])
    }
    const mac = await parseAll(utf8('a,b\r"one\rtwo",x\r"3\n4",y\r'), {}, 4)
    expect(mac.rows).toEqual([
      ['one\rtwo', 'x'],
      ['3\n4', 'y'],
    ])
  })

  it('counts the lines of a quoted cell’s CRLF and lone CR once each', async () => {
    const text = 'a,b\r\n"x\r\ny\rz",1\r\n2,"\r\n\r\n3\r\n"4'
    await expect(parseAll(utf8(text))).rejects.toMatchObject({ code: 'unterminated_quote', line: 5 })
  })

  it('numbers batches by row and skips blank lines', async () => {
    const { batches } = await parseAll(utf8('a,b\n1,2\n\n3,4\n5,6\n'))
    expect(batches.map((batch) => batch.startIndex)).toEqual([0, 2])
    expect(batches.flatMap((batch) => batch.rows)).toEqual([
      ['1', '2'],
      ['3', '4'],
      ['5', '6'],
    ])
  })

  it('pads short rows, keeps the filled cells of long ones past the header and says on which lines', async () => {
    const text = 'a,b,c\n1,2,3\n4,5\n6,7,8,9\n10,11,12,\n'
    const { rows, summary } = await parseAll(utf8(text))
    expect(rows).toEqual([
      ['1', '2', '3'],
      ['4', '5', ''],
      ['6', '7', '8', '9'],
      ['10', '11', '12'],
    ])
    expect(summary.widest).toBe(4)
    expect(summary.ragged).toEqual({
      short: 1,
      long: 1,
      examples: [
        { line: 3, cells: 2 },
        { line: 4, cells: 4 },
      ],
    })
  })

  it('reads a file without a header at the preview width', async () => {
    const { rows, summary } = await parseAll(utf8('Jane,Doe,acme.com\nJohn,Roe\n'), {
      hasHeader: false,
      width: 3,
    })
    expect(rows).toEqual([
      ['Jane', 'Doe', 'acme.com'],
      ['John', 'Roe', ''],
    ])
    expect(summary.header).toBeNull()
  })

  it('names the line where an unterminated quote starts', async () => {
    const error = await failure(parseAll(utf8('a,b\n1,2\n3,"open\n4,5\n')))
    expect(error.code).toBe('unterminated_quote')
    expect(error.line).toBe(3)
    expect(error.message).toContain('line 3')
  })

  it('refuses an empty file and a header without rows', async () => {
    expect((await failure(parseAll(new Uint8Array()))).code).toBe('empty')
    expect((await failure(parseAll(utf8('\n  \n')))).code).toBe('empty')
    const headerOnly = await failure(parseAll(utf8('first,last\n')))
    expect(headerOnly.code).toBe('no_rows')
    expect(headerOnly.message).toBe('The file has a header row but no data rows.')
  })

  it('stops when cancelled', async () => {
    const controller = new AbortController()
    controller.abort()
    const error = await failure(
      parseRows(
        chunksOf(utf8('a\n1\n'), 2),
        { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 0 },
        async () => {},
        {
          signal: controller.signal,
        },
      ),
    )
    expect(error.code).toBe('cancelled')
  })
})

describe('blobChunks', () => {
  const bytes = Uint8Array.from({ length: 1_000 }, (_, at) => at % 251)

  it('reads a file slice by slice, whole and in order, whatever the slice size', async () => {
    for (const size of [1, 7, 100, 999, 1_000, 4_096]) {
      const read: number[] = []
      for await (const chunk of blobChunks(new Blob([bytes]), size)) read.push(...chunk)
      expect(Uint8Array.from(read)).toEqual(bytes)
    }
    const none: Uint8Array[] = []
    for await (const chunk of blobChunks(new Blob([]))) none.push(chunk)
    expect(none).toEqual([])
  })

  it('asks for the next slice as it hands over one, and for none past where the reader stopped', async () => {
    const blob = new Blob([bytes])
    const asked: number[] = []
    const watched = {
      size: blob.size,
      slice: (start: number, end: number) => (asked.push(start), blob.slice(start, end)),
    } as unknown as Blob
    const chunks = blobChunks(watched, 300)
    expect((await chunks.next()).value).toEqual(bytes.subarray(0, 300))
    expect(asked).toEqual([0, 300])
    await chunks.return(undefined)
    expect(asked).toEqual([0, 300])
  })
})

describe('detectDelimiter', () => {
  it.each([
    [',', 'first,last,domain\nJane,Doe,acme.com\nJohn,Roe,"Roe, Inc"\n'],
    [';', 'first;last;city\nJane;Doe;Paris, France\nJohn;Roe;Lyon\n'],
    ['\t', 'first\tlast\tdomain\nJane\tDoe\tacme.com\nJohn\tRoe\tbeta.io\n'],
    ['|', 'first|last|domain\nJane|Doe|acme.com\nJohn|Roe|beta.io\n'],
  ])('finds %j', (delimiter, text) => {
    expect(detectDelimiter(text, true)).toBe(delimiter)
  })
})

describe('uniqueHeaders', () => {
  it('numbers repeated names and names blank ones by position', () => {
    expect(uniqueHeaders(['Email', 'email', ' ', 'Email', 'Name'])).toEqual([
      'Email',
      'email (2)',
      'Column 3',
      'Email (3)',
      'Name',
    ])
  })
})

describe('buildPreview', () => {
  it('detects encoding, delimiter and header, and follows overrides', () => {
    const bytes = new Uint8Array(Buffer.from('Prénom;Nom;Société\nRené;Müller;Acme\n', 'latin1'))
    const preview = buildPreview(bytes, true)
    expect(preview).toMatchObject({
      encoding: 'windows-1252',
      delimiter: ';',
      hasHeader: true,
      columns: ['Prénom', 'Nom', 'Société'],
      rows: [['René', 'Müller', 'Acme']],
      undecodable: 0,
    })
    const forced = buildPreview(bytes, true, { encoding: 'utf-8', delimiter: ',', hasHeader: false })
    expect(forced.columns).toEqual(['Column 1'])
    expect(forced.rows).toHaveLength(2)
    expect(forced.undecodable).toBeGreaterThan(0)
  })

  it('takes a first row of data for data', () => {
    const preview = buildPreview(utf8('Jane,Doe,acme.com\nJohn,Roe,beta.io\n'), true)
    expect(preview.hasHeader).toBe(false)
    expect(preview.columns).toEqual(['Column 1', 'Column 2', 'Column 3'])
    expect(preview.rows).toHaveLength(2)
  })

  it('refuses binary files with a clear message', () => {
    expect(() => buildPreview(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0]), true)).toThrow(/Excel/)
    expect(() => buildPreview(new Uint8Array([1, 2, 3, 0, 5, 6, 7, 8]), true)).toThrow(/binary/)
  })

  it('reads a longer sample when the first holds no whole row, and names a line too long at once', () => {
    const header = 'First name,Last name,Company domain,Notes\n'
    const file = (noteLength: number) =>
      utf8(`${header}Ada,Lovelace,acme.com,${'x'.repeat(noteLength)}\nBob,Roe,beta.io,ok\n`)
    // A 1 MB note: the first sample ends inside it; the long one shows the row.
    const long = file(1_000_000)
    const first = buildPreview(long.slice(0, sampleBytes), false)
    expect(first.rows).toHaveLength(0)
    expect(wantsLongSample(first, sampleBytes, long.length)).toBe(true)
    const second = buildPreview(long.slice(0, longSampleBytes), true)
    expect(second.rows.map((row) => row[0])).toEqual(['Ada', 'Bob'])
    expect(wantsLongSample(second, long.length, long.length)).toBe(false)
    // A 5 MB line: the long sample meets the reader's limit and says why, as the full read would.
    const huge = file(5_000_000)
    expect(() => buildPreview(huge.slice(0, longSampleBytes), false)).toThrow(
      /Line 2 is longer than 4 million characters/,
    )
  })
})

describe('a header below the first row', () => {
  const text =
    'Report for March\n\n"Note, with\na line break"\nfirst,last,domain\nAda,Lovelace,a.example\nZoë,Brown,b.example\n'

  it('numbers rows as a spreadsheet does and offers the first ones as the header', () => {
    const preview = buildPreview(utf8(text), true, { delimiter: ',' })
    expect(preview.firstRows.map((row) => row.row)).toEqual([1, 3, 4, 5, 6])
    expect(preview.headerRow).toBe(1)
    const chosen = buildPreview(utf8(text), true, { delimiter: ',', headerRow: 4 })
    expect(chosen.hasHeader).toBe(true)
    expect(chosen.headerRow).toBe(4)
    expect(chosen.columns).toEqual(['first', 'last', 'domain'])
    expect(chosen.rows).toEqual([
      ['Ada', 'Lovelace', 'a.example'],
      ['Zoë', 'Brown', 'b.example'],
    ])
  })

  it('reads from the header row on, with or without a quote in the text, however it arrives', async () => {
    for (const body of [text, text.replace('"Note, with\na line break"', 'Note')]) {
      for (const chunkSize of [3, 7, 64]) {
        const { rows, summary } = await parseAll(utf8(body), { headerRow: 4, width: 3 }, chunkSize)
        expect(summary.header, `chunks of ${chunkSize}`).toEqual(['first', 'last', 'domain'])
        expect(rows).toEqual([
          ['Ada', 'Lovelace', 'a.example'],
          ['Zoë', 'Brown', 'b.example'],
        ])
      }
    }
  })
})
