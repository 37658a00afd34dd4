import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { strToU8, unzipSync, zipSync } from 'fflate'
import { sheetRows } from '../../../../support/sheets'
import { handWorkbook } from '../../../../support/workbooks'

async function oneColumn(values: unknown[], numFmt?: string): Promise<string[]> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Cells')
  sheet.addRow(['value'])
  for (const value of values) {
    const row = sheet.addRow([value])
    if (numFmt) row.getCell(1).numFmt = numFmt
  }
  const bytes = new Uint8Array(await book.xlsx.writeBuffer())
  const [read] = await sheetRows(bytes)
  return read!.rows.slice(1).map((row) => row[0]!)
}

describe('workbook cells as Excel shows them', () => {
  it('reads every minute of a day as that minute, never a second early', async () => {
    const minutes = Array.from({ length: 1440 }, (_, minute) => minute)
    const read = await oneColumn(
      minutes.map((minute) => new Date(Date.UTC(2024, 2, 1, 0, minute))),
      'yyyy-mm-dd hh:mm',
    )
    const expected = minutes.map((minute) => {
      const pad = (value: number) => String(value).padStart(2, '0')
      return minute === 0 ? '2024-03-01' : `2024-03-01 ${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`
    })
    expect(read).toEqual(expected)
  })

  it('writes numbers in digits, never with an exponent', async () => {
    expect(await oneColumn([1e-7, -1.5e-10, 1e21, 2.5e-5, -1200.5, 0.1 + 0.2])).toEqual([
      '0.0000001',
      '-0.00000000015',
      '1000000000000000000000',
      '0.000025',
      '-1200.5',
      '0.3',
    ])
  })
})

describe('workbook cells as other programs write them', () => {
  const styles =
    '<?xml version="1.0"?><styleSheet><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd;@"/><numFmt numFmtId="165" formatCode="#,##0.00 &quot;kr&quot;"/></numFmts>' +
    '<cellXfs count="5"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="20"/></cellXfs></styleSheet>'

  it('reads each kind of cell: dates by their style, rich and phonetic text, escapes, truth values, errors', async () => {
    const book = handWorkbook(
      [
        {
          name: 'Cells',
          data:
            '<row r="1"><c r="A1" s="1"><v>45352</v></c><c r="B1" s="2"><v>45352.5</v></c><c r="C1" s="3"><v>1200.5</v></c><c r="D1" s="4"><v>0.5729166666666666</v></c></row>' +
            '<row r="2"><c r="A2" t="s"><v>0</v></c><c r="B2" t="s"><v>1</v></c><c r="C2" t="inlineStr"><is><r><t>Zo</t></r><r><t>ë</t></r></is></c></row>' +
            '<row r="4"><c r="B4" t="b"><v>1</v></c><c r="C4" t="e"><v>#DIV/0!</v></c><c r="D4" t="d"><v>2024-03-01T13:45:00</v></c><c r="F4" t="str"><f>A1&amp;"x"</f><v>a &lt; b</v></c></row>',
        },
      ],
      {
        sharedStrings: ['line_x000D_\nbreak', 'Fish &amp; chips'],
        styles,
      },
    )
    const [sheet] = await sheetRows(book)
    expect(sheet!.rows).toEqual([
      ['2024-03-01', '2024-03-01 12:00', '1200.5', '13:45'],
      ['line\r\nbreak', 'Fish & chips', 'Zoë'],
      [],
      ['', 'TRUE', '', '2024-03-01 13:45', '', 'a < b'],
    ])
  })

  it('reads rich shared strings without their phonetic guide, and 1904 dates', async () => {
    const ns = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main'
    const book = handWorkbook(
      [{ name: 'S', data: '<row><c t="s"><v>0</v></c><c s="1"><v>0</v></c></row>' }],
      {
        styles,
      },
    )
    const parts = unzipSync(book)
    parts['xl/sharedStrings.xml'] = strToU8(
      `<sst xmlns="${ns}"><si><r><t>東</t></r><r><t>京</t></r><rPh sb="0" eb="2"><t>トウキョウ</t></rPh></si></sst>`,
    )
    parts['xl/workbook.xml'] = strToU8(
      new TextDecoder()
        .decode(parts['xl/workbook.xml'])
        .replace('<sheets>', '<workbookPr date1904="1"/><sheets>'),
    )
    parts['xl/_rels/workbook.xml.rels'] = strToU8(
      new TextDecoder()
        .decode(parts['xl/_rels/workbook.xml.rels'])
        .replace(
          '</Relationships>',
          '<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>',
        ),
    )
    const [sheet] = await sheetRows(zipSync(parts))
    expect(sheet!.rows).toEqual([['東京', '1904-01-01']])
  })
})
