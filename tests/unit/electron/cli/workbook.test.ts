import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { readList } from '../../../../electron/cli/csv'
import { handWorkbook, inlineRow, openDocumentSpreadsheet } from '../../../support/workbooks'

// Workbooks as other programs than Excel write them, read on the command line as the app reads them.
describe('workbooks written by other programs', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-xlsx-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const file = (name: string, bytes: Uint8Array) => {
    const path = join(dir, name)
    writeFileSync(path, bytes)
    return path
  }

  it('reads cells that carry no address, as DataGrip and IntelliJ export them', async () => {
    const book = handWorkbook([
      {
        name: 'export',
        data: [
          inlineRow(['first_name', 'last_name', 'company_domain']),
          inlineRow(['Zoë', 'Brown', 'brown.example']),
          '<row><c t="inlineStr"><is><t>Ada</t></is></c><c t="inlineStr"><is><t>Lovelace</t></is></c><c><v>42</v></c></row>',
        ].join(''),
      },
    ])
    const list = await readList(file('export.xlsx', book))
    expect(list.columns).toEqual(['first_name', 'last_name', 'company_domain'])
    expect(list.rows).toEqual([
      ['Zoë', 'Brown', 'brown.example'],
      ['Ada', 'Lovelace', '42'],
    ])
  })

  it('keeps a sheet’s cells as they are: “crm;q1;vip” is one cell, never split again', async () => {
    const tags = ['crm;q1;vip', 'crm;q2', 'crm;q3;vip', 'partner;q1;vip']
    const twoColumns = handWorkbook([
      {
        name: 'Leads',
        data:
          inlineRow(['name', 'tags']) +
          tags.map((tag, index) => inlineRow([`Person ${index}`, tag])).join(''),
      },
    ])
    const list = await readList(file('tags.xlsx', twoColumns))
    expect(list.delimiter).toBe(',')
    expect(list.columns).toEqual(['name', 'tags'])
    expect(list.rows.map((row) => row[1])).toEqual(tags)
    const oneColumn = handWorkbook([
      { name: 'Tags', data: inlineRow(['tags']) + tags.map((tag) => inlineRow([tag])).join('') },
    ])
    expect((await readList(file('one.xlsx', oneColumn))).rows).toEqual(tags.map((tag) => [tag]))
  })

  it('names the column and the count of formulas saved without a value', async () => {
    const book = handWorkbook(
      [
        {
          name: 'People',
          data:
            '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>' +
            [2, 3, 4]
              .map(
                (row) =>
                  `<row r="${row}"><c r="A${row}" t="s"><v>3</v></c><c r="B${row}"><v>${row}</v></c><c r="C${row}"><f>B${row}*2</f><v></v></c></row>`,
              )
              .join(''),
        },
      ],
      { sharedStrings: ['Name', 'Seats', 'Score', 'Ann'] },
    )
    const notes: string[] = []
    const list = await readList(file('openpyxl.xlsx', book), { note: (text) => notes.push(text) })
    expect(list.rows).toEqual([
      ['Ann', '2', ''],
      ['Ann', '3', ''],
      ['Ann', '4', ''],
    ])
    expect(notes.join('')).toMatch(
      /Formulas without a computed value read as empty\. “Score” \(column C\): 3 formulas\./,
    )
  })

  it('says when saved formula values may be wrong (xlsxwriter saves 0 and asks for a recalculation)', async () => {
    const book = handWorkbook(
      [
        {
          name: 'Sheet1',
          data:
            '<row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Total</t></is></c></row>' +
            '<row r="2"><c r="A2" t="inlineStr"><is><t>Ann</t></is></c><c r="B2"><f>SUM(1,2)</f><v>0</v></c></row>',
        },
      ],
      { calcPr: '<calcPr calcId="124519" fullCalcOnLoad="1"/>' },
    )
    const notes: string[] = []
    await readList(file('xlsxwriter.xlsx', book), { note: (text) => notes.push(text) })
    expect(notes.join('')).toMatch(
      /saved values may be wrong \(often 0\)\. “Total” \(column B\): 1 formula\./,
    )
  })

  it('recognises an OpenDocument spreadsheet, also when it is named .xlsx', async () => {
    const ods = openDocumentSpreadsheet()
    const message = /OpenDocument spreadsheet \(\.ods\).*save it as an Excel Workbook \(\.xlsx\) or as CSV/
    await expect(readList(file('people.ods', ods))).rejects.toThrow(message)
    await expect(readList(file('people.xlsx', ods))).rejects.toThrow(message)
  })
})

describe('the header row, chosen by its number', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lk-header-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  const file = (name: string, bytes: Uint8Array | string) => {
    const path = join(dir, name)
    writeFileSync(path, bytes)
    return path
  }

  it('leaves out a title and a note above the header of a sheet, by the sheet’s row numbers', async () => {
    const book = handWorkbook([
      {
        name: 'Fair',
        data:
          '<row r="1"><c r="A1" t="inlineStr"><is><t>Trade fair, March</t></is></c></row>' +
          '<row r="2"><c r="A2" t="inlineStr"><is><t>Line one\nline two of a note</t></is></c></row>' +
          '<row r="4">' +
          ['First name', 'Last name', 'Domain']
            .map((cell) => `<c t="inlineStr"><is><t>${cell}</t></is></c>`)
            .join('') +
          '</row>' +
          inlineRow(['Zoë', 'Brown', 'brown.example']),
      },
    ])
    const list = await readList(file('fair.xlsx', book), { headerRow: 4 })
    expect(list.columns).toEqual(['First name', 'Last name', 'Domain'])
    expect(list.rows).toEqual([['Zoë', 'Brown', 'brown.example']])
  })

  it('leaves out the rows above the header of a CSV file', async () => {
    const text =
      'Exported from the CRM\r\n"a note\r\non two lines"\r\nfirst_name,last_name,company_domain\r\nAda,Lovelace,analytical.example\r\n'
    const list = await readList(file('crm.csv', text), { headerRow: 3 })
    expect(list.columns).toEqual(['first_name', 'last_name', 'company_domain'])
    expect(list.rows).toEqual([['Ada', 'Lovelace', 'analytical.example']])
    await expect(readList(file('short.csv', text), { headerRow: 9 })).rejects.toThrow(/no row 9/)
  })
})
