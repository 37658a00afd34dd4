import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readList, writeCsv } from '../../../../electron/cli/csv'
import { columnList, mapColumns } from '../../../../electron/cli/columns'
import { jobIdContinuing, jobIdFrom } from '../../../../electron/engine/jobs/manager'

describe('list files on the command line', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-csv-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const file = (name: string, bytes: string | Buffer) => {
    const path = join(dir, name)
    writeFileSync(path, bytes)
    return path
  }

  it('reads UTF-8 with a BOM, trimming headers and skipping blank lines', async () => {
    const list = await readList(file('in.csv', '\ufeff First ,Ville\r\nZoë,Zürich\r\n\r\n"Ann, Jr",Köln\r\n'))
    expect(list.columns).toEqual(['First', 'Ville'])
    expect(list.rows).toEqual([
      ['Zoë', 'Zürich'],
      ['Ann, Jr', 'Köln'],
    ])
  })

  it('reads UTF-16 with a byte-order mark and Windows-1252, as the app does', async () => {
    const text = 'First,Last,Domain\r\nZoë,Müller,acme.de\r\n'
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    const latin = Buffer.from(text, 'latin1')
    for (const bytes of [utf16, latin]) {
      const list = await readList(file('in.csv', bytes))
      expect(list.rows).toEqual([['Zoë', 'Müller', 'acme.de']])
    }
    expect((await readList(file('a.csv', latin))).encoding).toBe('windows-1252')
  })

  it('keeps cells past the header in columns named by position, never cutting them', async () => {
    const list = await readList(file('wide.csv', 'a,b\n1,2\n3,4,extra,more\n5,6,,\n'))
    expect(list.columns).toEqual(['a', 'b', 'Column 3', 'Column 4'])
    expect(list.rows).toEqual([
      ['1', '2'],
      ['3', '4', 'extra', 'more'],
      ['5', '6'],
    ])
    expect(list.parse.ragged.long).toBe(1)
  })

  it('reads a quoted field holding a bare carriage return as the valid CSV it is', async () => {
    const list = await readList(file('cr.csv', 'name,note\r\n"Ann","line one\rline two"\r\nBob,x\r\n'))
    expect(list.rows).toHaveLength(2)
    expect(list.rows[1]).toEqual(['Bob', 'x'])
  })

  it('names a binary file for what it is', async () => {
    await expect(readList(file('x.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0])))).rejects.toThrow(
      /Excel/,
    )
  })

  it('identifies a job as earlier versions did, so running the same command again resumes it', async () => {
    const text = 'First Name,Last Name,Company Domain\r\nAda,Lovelace,acme.io\r\n'
    const list = await readList(file('in.csv', '\ufeff' + text))
    const map = JSON.stringify(mapColumns(list.columns))
    // Earlier versions: the decoded text without its byte-order mark, the header map, the options…
    expect(jobIdContinuing(list.contentHash, map, '{"email":true}', 'sandbox', '/out.csv')).toBe(
      jobIdFrom(text, map, '{"email":true}', 'sandbox', '/out.csv'),
    )
  })

  it('names the first few columns and how many more', () => {
    const headers = Array.from({ length: 5000 }, (_, i) => `c${i + 1}`)
    expect(columnList(headers)).toBe('c1, c2, c3, c4, c5, c6, c7, c8 and 4992 more')
    expect(columnList(['a', 'b'])).toBe('a, b')
  })

  it('writes search results with a BOM, CRLF lines, quoted cells and neutralised formulas', () => {
    const path = join(dir, 'out.csv')
    writeCsv(
      path,
      ['a', 'b', 'c'],
      [
        { a: '=1+1', b: 'x, "y"', c: ['k1', 'k2'] },
        { a: null, b: 3 },
      ],
    )
    expect(readFileSync(path, 'utf8')).toBe('\ufeffa,b,c\r\n\'=1+1,"x, ""y""","k1, k2"\r\n,3,\r\n')
  })
})
