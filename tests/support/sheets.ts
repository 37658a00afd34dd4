import { Workbook } from '../../electron/domain/read/workbook'

/** Every row of every sheet of a workbook, each cell as text, a row without cells kept as an empty one. */
export async function sheetRows(bytes: Uint8Array): Promise<{ name: string; rows: string[][] }[]> {
  const book = await Workbook.open(bytes)
  const sheets = []
  for (const { name } of book.sheets) {
    const rows: string[][] = []
    for await (const batch of book.rows(name)) {
      for (const { row, cells } of batch) {
        while (rows.length < row - 1) rows.push([])
        rows.push(cells)
      }
    }
    sheets.push({ name, rows })
  }
  return sheets
}
