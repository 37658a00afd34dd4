import { readFileSync } from 'node:fs'
import { peopleWorkbook, readBack } from '../support/workbooks'
import { expect, test } from './fixtures'
import { ImportDialog } from './pages/import'
import { RunPanel } from './pages/lists'
import { ShellPage } from './pages/shell'

test('an Excel workbook dropped on the window: its list sheet found behind a "Read me", enriched, exported to Excel', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const run = new RunPanel(app)
  await shell.open('Lists')

  await dialog.dropFile('trade-fair.xlsx', await peopleWorkbook())
  const sheet = app.locator('[data-test="import-sheet"]')
  await expect(sheet).toContainText('People (3 rows)')
  await expect(dialog.preview()).toContainText('Zoë')
  await expect(dialog.preview()).toContainText('2026-03-01')
  await expect(app.locator('[data-test="import-encoding"]')).toHaveCount(0)
  await expect(dialog.dialog()).toContainText('Import “trade-fair.xlsx”')
  await dialog.screenshot('excel-1-sheet')

  // Another sheet can be chosen, and the list's one back again.
  await dialog.choose('import-sheet', 'Read me (2 rows)')
  await expect(dialog.preview()).toContainText('Do not change the column names.')
  await dialog.choose('import-sheet', 'People (3 rows)')
  await expect(dialog.preview()).toContainText('Lovelace')

  await dialog.importAll()
  await expect(app.locator('[data-test="list-name"]')).toContainText('trade-fair')
  await run.estimate()
  await run.run()
  await run.waitDone()

  const downloadStarted = app.waitForEvent('download')
  await app.locator('[data-test="export"]').click()
  await app.getByText(/^Excel \(\.xlsx\) — all 2 rows$/).click()
  const download = await downloadStarted
  expect(download.suggestedFilename()).toBe('trade-fair (enriched).xlsx')
  const book = await readBack(new Uint8Array(readFileSync((await download.path())!)))
  const exported = book.worksheets[0]!
  expect(exported.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
  const header = (exported.getRow(1).values as unknown[]).slice(1)
  expect(header.slice(0, 3)).toEqual(['First name', 'Last name', 'Company domain'])
  const status = header.indexOf('Email status') + 1
  expect(status).toBeGreaterThan(8)
  expect([2, 3].map((at) => exported.getRow(at).getCell(1).value)).toEqual(['Zoë', 'Ada'])
  for (const at of [2, 3]) expect(String(exported.getRow(at).getCell(status).value)).not.toBe('')
  expect(exported.getRow(2).getCell(8).value).toBe('=HYPERLINK("http://x")')
  expect(exported.getRow(2).getCell(8).formula).toBeUndefined()
  await shell.screenshot('excel-2-enriched')
})

test('an old .xls workbook is refused with what to do instead', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  const legacy = new Uint8Array(4096)
  legacy.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
  await dialog.dropFile('old.xls', legacy)
  await expect(app.locator('[data-test="import-problem"]')).toContainText(
    'Excel 97–2003 workbook (.xls), which cannot be read here. Open it in Excel and save it as an Excel Workbook (.xlsx) or as CSV.',
  )
  await dialog.screenshot('excel-3-xls')
})
