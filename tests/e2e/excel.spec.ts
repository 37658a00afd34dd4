import { readFileSync } from 'node:fs'
import ExcelJS from 'exceljs'
import { handWorkbook, peopleWorkbook, readBack } from '../support/workbooks'
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

  // Zoë comes twice: the second is not sent, and comes back with her result.
  const people = [
    { first: 'Zoë', last: 'Brown', domain: 'brown.example' },
    { first: 'Ada', last: 'Lovelace', domain: 'analytical.com' },
    { first: 'Zoë', last: 'Brown', domain: 'brown.example' },
  ]
  await dialog.dropFile('trade-fair.xlsx', await peopleWorkbook(people))
  const sheet = app.locator('[data-test="import-sheet"]')
  await expect(sheet).toContainText('People (3 rows)')
  await expect(dialog.preview()).toContainText('Zoë')
  await expect(dialog.preview()).toContainText('2026-03-01')
  await expect(app.locator('[data-test="import-encoding"]')).toHaveCount(0)
  await expect(dialog.dialog()).toContainText('Import “trade-fair.xlsx”')
  await dialog.screenshot('excel-1-sheet')

  // Another sheet can be chosen, and the list's one back again.
  await dialog.choose('import-sheet', 'Read me (1 row)')
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
  await app.getByText(/^Excel \(\.xlsx\) — all 3 rows$/).click()
  const download = await downloadStarted
  expect(download.suggestedFilename()).toBe('trade-fair (enriched).xlsx')
  const book = await readBack(new Uint8Array(readFileSync((await download.path())!)))
  const exported = book.worksheets[0]!
  expect(exported.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
  const header = (exported.getRow(1).values as unknown[]).slice(1)
  expect(header.slice(0, 3)).toEqual(['First name', 'Last name', 'Company domain'])
  const status = header.indexOf('Email status') + 1
  expect(status).toBeGreaterThan(8)
  expect(exported.rowCount).toBe(4)
  expect([2, 3, 4].map((at) => exported.getRow(at).getCell(1).value)).toEqual(['Zoë', 'Ada', 'Zoë'])
  for (const at of [2, 3, 4]) expect(String(exported.getRow(at).getCell(status).value)).not.toBe('')
  // Every row whole: the twin carries her first row's result, not charged again.
  const cell = (at: number, title: string) => exported.getRow(at).getCell(header.indexOf(title) + 1).value
  for (const title of ['Email', 'Email status', 'Status']) expect(cell(4, title)).toEqual(cell(2, title))
  expect(cell(4, 'Result from')).toBe('same person as row 1, not charged')
  expect(exported.getRow(2).getCell(8).value).toBe('=HYPERLINK("http://x")')
  expect(exported.getRow(2).getCell(8).formula).toBeUndefined()
  await shell.screenshot('excel-2-enriched')
})

test('a workbook that cannot be read, one without a list, and an old .xls each say what is wrong', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  const legacy = new Uint8Array(4096)
  legacy.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])
  const problem = app.locator('[data-test="import-problem"]')

  await dialog.dropFile('broken.xlsx', new TextEncoder().encode('PK\u0003\u0004 cut short'))
  await expect(problem).toContainText('This file could not be read as an Excel workbook')
  await app.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog.dialog()).toBeHidden()

  // A title and nothing under it: no sheet holds a list; the sheet can still be picked.
  const notes = new ExcelJS.Workbook()
  notes.addWorksheet('Notes').addRow(['Trade fair 2026'])
  await dialog.dropFile('notes.xlsx', new Uint8Array(await notes.xlsx.writeBuffer()))
  await expect(problem).toContainText('No sheet of this workbook holds a list')
  await expect(problem).toContainText('its sheets: “Notes”')
  await expect(app.locator('[data-test="import-sheet"]')).toBeVisible()
  await dialog.screenshot('excel-3-no-list')
  await app.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog.dialog()).toBeHidden()

  await dialog.dropFile('old.xls', legacy)
  await expect(problem).toContainText(
    'Excel 97–2003 workbook (.xls), which cannot be read here. Open it in Excel and save it as an Excel Workbook (.xlsx) or as CSV.',
  )
  await dialog.screenshot('excel-4-xls')
})

test('an Excel import cut off by closing the window goes on from its sheet where it stopped', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const rows = 60_000
  const people = Array.from({ length: rows }, (_, i) => ({
    first: `First${i}`,
    last: `Last${i}`,
    domain: `company${i % 500}.com`,
  }))
  const workbook = {
    name: 'fair.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: Buffer.from(await peopleWorkbook(people)),
  }
  await shell.open('Lists')
  let chooser = app.waitForEvent('filechooser')
  await app.locator('[data-test="import-list"]').click()
  await (await chooser).setFiles(workbook)
  await expect(app.locator('[data-test="import-sheet"]')).toContainText('People (60,000 rows)', {
    timeout: 60_000,
  })
  await dialog.next()
  await dialog.readAll()
  await expect.poll(() => dialog.storedBlocks(), { timeout: 60_000 }).toBeGreaterThan(0)
  await app.reload()

  const notice = app.locator('[data-test="import-interrupted"]')
  await expect(notice).toContainText('fair.xlsx (sheet “People”) was being read')
  await expect(notice.locator('[data-test="interrupted-rows"]')).toContainText(
    /[1-9][\d,]* rows? (was|were) stored/,
  )
  chooser = app.waitForEvent('filechooser')
  await notice.locator('[data-test="import-resume"]').click()
  await (await chooser).setFiles(workbook)
  await expect(dialog.review()).toBeVisible({ timeout: 120_000 })
  await expect(app.locator('[data-test="import-summary"]')).toContainText('60,000 rows read')
  await dialog.finish()
  await expect(app.getByText(/\b60,000 rows\b/).first()).toBeVisible()

  // Every person of the sheet once, in order, in the list exported.
  const downloadStarted = app.waitForEvent('download')
  await app.locator('[data-test="export"]').click()
  await app.getByText(/^CSV for a spreadsheet \(formulas neutralised\) — all 60,000 rows$/).click()
  const exported = readFileSync((await (await downloadStarted).path())!, 'utf8').replace(/^\uFEFF/, '')
  const firsts = exported
    .split(/\r?\n/)
    .filter(Boolean)
    .map((line) => line.split(',')[0])
  expect(firsts).toEqual(['First name', ...people.map((person) => person.first)])
})

test('a sheet with a title above its header: the header row chosen, its cells kept, its formulas without a value named', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  const cell = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`
  const book = handWorkbook([
    {
      name: 'Fair',
      data:
        `<row r="1">${cell('Trade fair, March')}</row>` +
        `<row r="3">${['First name', 'Last name', 'Company domain', 'Tags', 'Score'].map(cell).join('')}</row>` +
        [
          ['Zoë', 'Brown', 'brown.example', 'crm;q1;vip'],
          ['Ada', 'Lovelace', 'analytical.com', 'crm;q2'],
        ]
          .map(
            (cells, index) =>
              `<row r="${index + 4}">${cells.map(cell).join('')}<c><f>1+${index}</f></c></row>`,
          )
          .join(''),
    },
  ])
  await dialog.dropFile('fair.xlsx', book)
  await expect(dialog.headerRow()).toContainText('Row 1: Trade fair, March')
  await expect(dialog.sheetNotes()).toContainText('column E: 2 formulas')
  await dialog.choose('import-header-row', 'Row 3: First name')
  await expect(dialog.headerRow()).toContainText('Row 3: First name')
  // The formulas' column is named by the header chosen.
  await expect(dialog.sheetNotes()).toContainText('“Score” (column E): 2 formulas')
  await expect(dialog.preview()).toContainText('Company domain')
  await expect(dialog.preview()).toContainText('crm;q1;vip')
  await dialog.screenshot('header-row')
  await dialog.next()
  await expect(app.locator('[data-test="map-company_domain"]')).toContainText('Company domain')
  await dialog.readAll()
  await expect(dialog.review()).toBeVisible()
  await expect(app.locator('[data-test="import-summary"]')).toContainText('2 rows read')
})
