import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { neutralizeFormula, readCsv, writeCsv } from '../../../../electron/cli/csv'

describe('CSV files', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-csv-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('reads UTF-8 with or without a BOM, trimming headers and skipping blank lines', () => {
    const path = join(dir, 'in.csv')
    writeFileSync(path, '\ufeff First ,Ville\r\nZoë,Zürich\r\n\r\n"Ann, Jr",Köln\r\n')
    const table = readCsv(path)
    expect(table.headers).toEqual(['First', 'Ville'])
    expect(table.rows).toEqual([
      { First: 'Zoë', Ville: 'Zürich' },
      { First: 'Ann, Jr', Ville: 'Köln' },
    ])
  })

  it('refuses a file that is not UTF-8, saying what to give instead', () => {
    const path = join(dir, 'latin1.csv')
    writeFileSync(path, Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x0a, 0x5a, 0xfc, 0x72, 0x69, 0x63, 0x68, 0x0a]))
    expect(() => readCsv(path)).toThrow(/UTF-8/)
  })

  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1', "'+1"],
    ['-2', "'-2"],
    ['@cmd', "'@cmd"],
    ['\tx', "'\tx"],
    ['\rx', "'\rx"],
    ['\nx', "'\nx"],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
  ])('neutralises %j', (input, expected) => expect(neutralizeFormula(input)).toBe(expected))

  it('writes a BOM, CRLF lines, quoted cells and neutralised formulas', () => {
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
