import 'fake-indexeddb/auto'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { blockTables, putRows } from '@/db/blocks'
import { LeadkeeperDb } from '@/db/schema'
import type { ListRecord, RowRecord } from '@/db/records'
import { csvCell, csvCellAsIs, csvLine, neutralise } from '@domain/export/csv'
import { listColumns } from '@domain/export/columns'
import { exportFileName, joinExport } from '@/db/export-file'
import { exportList, exportRows } from '@/db/export-list'
import { blockRanges } from '@/workers/export-client'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())

const list: ListRecord = {
  id: 'L',
  name: 'Fair: 2026.csv',
  createdAt: 1,
  updatedAt: 1,
  source: { fileName: 'fair.csv', size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
  columns: ['Name', 'Email', 'Note'],
  mapping: {},
  rowCount: 0,
  state: 'done',
  jobIds: [],
  creditsSpent: 0,
}

function row(index: number, values: string[], result?: Record<string, unknown>): RowRecord {
  return {
    listId: 'L',
    index,
    values,
    issues: [],
    skip: false,
    status: result ? 'found' : 'not_found',
    ...(result ? { result } : {}),
    emailStatus: String(result?.['contact_email_address_status'] ?? ''),
    seniority: '',
    country: String(result?.['contact_location_country'] ?? ''),
    company: '',
    hasPhone: 0,
  }
}

const dangerous = ['=SUM(A1)', '+44 20 7946 0958', '-2+3', '@cmd', '\tx', '\rx', '\nx']

async function seeded(): Promise<LeadkeeperDb> {
  const database = freshDb()
  const rows = [
    row(2, ['Cy', 'cy@z.io', 'plain']),
    row(0, ['Ada "the first"', 'ada@x.io', 'line one\nline two'], {
      contact_email_address: 'ada@engines.io',
      contact_email_address_status: 'deliverable',
      contact_location_country: 'France',
      company_keywords: ['a', 'b'],
    }),
    row(1, dangerous.slice(0, 3), {
      contact_email_address: '=HYPERLINK("x")',
      contact_location_country: 'Spain',
    }),
    ...dangerous.slice(3).map((cell, at) => row(3 + at, [cell, '', ''])),
  ]
  await database.transaction('rw', blockTables(database), async () => putRows(database, 'L', rows))
  return database
}

async function csvOf(database: LeadkeeperDb, filters?: Record<string, string[]>): Promise<string> {
  const file = await exportList(list, {
    format: 'csv',
    database,
    pageSize: 2,
    ...(filters ? { filters } : {}),
  })
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await file.blob.arrayBuffer())
}

describe('CSV cells', () => {
  it.each(dangerous)('neutralises a cell starting with %j', (cell) => {
    expect(neutralise(cell)).toBe(`'${cell}`)
  })

  it('leaves ordinary cells, and formula characters after the start, alone', () => {
    expect(neutralise('a=b')).toBe('a=b')
    expect(neutralise(' =x')).toBe(' =x')
    expect(csvCell('plain')).toBe('plain')
  })

  it('writes a plain number as it is, for a spreadsheet and for another system', () => {
    for (const number of ['-1200.5', '+1', '-2', '-.5', '-1e-7', '1200']) {
      expect(csvCell(number)).toBe(number)
      expect(csvCellAsIs(number)).toBe(number)
    }
    expect(csvCell('-1,200.50')).toBe(`"'-1,200.50"`)
    expect(csvCell('-2+3')).toBe(`'-2+3`)
  })

  it('writes values as they are for another system, quoting only what CSV needs', () => {
    expect(csvCellAsIs('+44 20 7946 0958')).toBe('+44 20 7946 0958')
    expect(csvCellAsIs('=SUM(A1)')).toBe('=SUM(A1)')
    expect(csvCellAsIs('@handle')).toBe('@handle')
    expect(csvCellAsIs('a,b')).toBe('"a,b"')
    expect(csvLine(['+44 20', '-x', 'say "hi"'], 'import')).toBe('+44 20,-x,"say ""hi"""\r\n')
    expect(csvLine(['+44 20', '-x'], 'spreadsheet')).toBe("'+44 20,'-x\r\n")
  })

  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('a,b')).toBe('"a,b"')
    expect(csvCell('say "hi"')).toBe('"say ""hi"""')
    expect(csvCell('one\ntwo')).toBe('"one\ntwo"')
    expect(csvCell('\nx')).toBe(`"'\nx"`)
  })
})

describe('exportList', () => {
  it('writes a UTF-8 BOM, input columns then enrichment columns, rows in import order', async () => {
    const text = await csvOf(await seeded())
    expect(text.charCodeAt(0)).toBe(0xfeff)
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true })
    const [header, ...records] = parsed.data
    expect(header!.slice(0, 5)).toEqual(['Name', 'Email', 'Note', 'Email (enriched)', 'Email status'])
    expect(header!.slice(-3)).toEqual(['Status', 'Result from', 'Note (enriched)'])
    expect(new Set(header).size).toBe(header!.length)
    expect(records.map((record) => record[0])).toEqual([
      'Ada "the first"',
      "'=SUM(A1)",
      'Cy',
      "'@cmd",
      "'\tx",
      "'\rx",
      "'\nx",
    ])
    expect(records[0]!.slice(2, 5)).toEqual(['line one\nline two', 'ada@engines.io', 'deliverable'])
    expect(records[1]!.slice(1, 4)).toEqual(["'+44 20 7946 0958", "'-2+3", `'=HYPERLINK("x")`])
    expect(records[0]!.at(-3)).toBe('found')
    expect(records[2]!.at(-3)).toBe('not_found')
    expect(text.split('\r\n')[0]).toContain('Name,Email,Note')
  })

  it('exports only the current filter when given one', async () => {
    const text = await csvOf(await seeded(), { country: ['Spain'] })
    const parsed = Papa.parse<string[]>(text.slice(1), { skipEmptyLines: true })
    expect(parsed.data).toHaveLength(2)
    expect(parsed.data[1]![0]).toBe("'=SUM(A1)")
  })

  it('writes JSON as an array of objects keyed by the same headers, values unaltered', async () => {
    const file = await exportList(list, { format: 'json', database: await seeded(), pageSize: 3 })
    expect(file.rows).toBe(7)
    expect(file.fileName).toBe('Fair_ 2026 (enriched).json')
    const records = JSON.parse(await file.blob.text()) as Record<string, string>[]
    expect(records).toHaveLength(7)
    expect(records[0]).toMatchObject({
      Name: 'Ada "the first"',
      'Email (enriched)': 'ada@engines.io',
      Status: 'found',
    })
    expect(records[1]!['Name']).toBe('=SUM(A1)')
    expect(Object.keys(records[0]!).slice(0, 3)).toEqual(['Name', 'Email', 'Note'])
  })

  it('writes a valid empty file for an empty selection', async () => {
    const database = await seeded()
    const json = await exportList(list, { format: 'json', database, filters: { country: ['Nowhere'] } })
    expect(JSON.parse(await json.blob.text())).toEqual([])
    expect(exportFileName('', 'csv')).toBe('list (enriched).csv')
  })
})

describe('an export in parts', () => {
  /** 3,500 rows over four blocks, every seventh of the first thousand in Spain (so a filter leaves blocks empty). */
  async function fourBlocks(): Promise<{ database: LeadkeeperDb; big: ListRecord; rows: RowRecord[] }> {
    const database = freshDb()
    const rows = Array.from({ length: 3_500 }, (_, index) =>
      row(index, [`Name ${index}`, `n${index}@x.io`, index % 500 === 0 ? 'a, "quoted"\nnote' : ''], {
        contact_email_address: `found${index}@y.io`,
        contact_location_country: index % 7 === 0 && index < 1_000 ? 'Spain' : 'France',
      }),
    )
    await database.transaction('rw', blockTables(database), async () => putRows(database, 'L', rows))
    return { database, big: { ...list, rowCount: rows.length }, rows }
  }

  /** The file expected of these rows, written out here line by line and record by record. */
  function expectedFile(big: ListRecord, format: 'csv' | 'json', rows: RowRecord[]): string {
    const columns = listColumns(big.columns)
    const cells = (one: RowRecord) => columns.map((column) => column.value(one))
    if (format === 'csv')
      return (
        '\uFEFF' +
        [columns.map((column) => column.title), ...rows.map(cells)].map((line) => csvLine(line)).join('')
      )
    const records = rows.map((one) =>
      JSON.stringify(Object.fromEntries(columns.map((column) => [column.title, column.value(one)]))),
    )
    return records.length === 0 ? '[]\n' : `[\n${records.join(',\n')}\n]\n`
  }

  it('cuts a list into ranges of blocks that cover it once, in order', () => {
    expect(blockRanges(3_500, 2)).toEqual([
      { from: 0, to: 2 },
      { from: 2, to: Infinity },
    ])
    expect(blockRanges(0, 2)).toEqual([{ from: 0, to: Infinity }])
    expect(blockRanges(999, 2)).toEqual([{ from: 0, to: Infinity }])
    const ranges = blockRanges(1_000_000, 3)
    expect(ranges.map((range) => range.from)).toEqual([0, 333, 666])
    expect(ranges.map((range) => range.to)).toEqual([333, 666, Infinity])
  })

  const cases: ['csv' | 'json', string[] | undefined][] = [
    ['csv', undefined],
    ['json', undefined],
    ['csv', ['Spain']],
    ['json', ['Spain']],
    ['csv', ['Nowhere']],
    ['json', ['Nowhere']],
  ]
  it.each(cases)(
    'writes a %s file in parts, joined, as it should read whole (countries %j)',
    async (format, countries) => {
      const { database, big, rows } = await fourBlocks()
      const options = {
        format,
        database,
        pageSize: 700,
        ...(countries ? { filters: { country: countries } } : {}),
      }
      const parts = await Promise.all(
        blockRanges(big.rowCount, 3).map((range) => exportRows(big, options, range)),
      )
      const joined = joinExport(big, format, parts)
      const wanted = rows.filter((one) => !countries || countries.includes(String(one.country)))
      expect(await joined.blob.text()).toBe(expectedFile(big, format, wanted))
      expect(joined.rows).toBe(wanted.length)
      expect(await (await exportList(big, options)).blob.text()).toBe(expectedFile(big, format, wanted))
      if (!countries) expect(parts.map((part) => part.rows)).toEqual([1_000, 1_000, 1_500])
    },
  )
})
