import ExcelJS from 'exceljs'
import { describe, expect, it } from 'vitest'
import { readWorkbook } from '../../../../../electron/domain/read/workbook'

async function oneColumn(values: unknown[], numFmt?: string): Promise<string[]> {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet('Cells')
  sheet.addRow(['value'])
  for (const value of values) {
    const row = sheet.addRow([value])
    if (numFmt) row.getCell(1).numFmt = numFmt
  }
  const bytes = new Uint8Array(await book.xlsx.writeBuffer())
  const [read] = await readWorkbook(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength))
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
