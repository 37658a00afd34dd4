import Papa from 'papaparse'
import { expect, test } from './fixtures'
import { ImportDialog, sampleFile } from './pages/import'
import { ResultsPage, settled } from './pages/library'
import { exportAllCsv, RunPanel } from './pages/lists'
import { ShellPage } from './pages/shell'

/** The list's "N rows" (or "N of M rows") as a number: the rows shown. */
async function shownRows(results: ResultsPage): Promise<number> {
  const text = await results.rowCount().innerText()
  return Number(text.split(' of ').at(-1)!.replace(/\D/g, ''))
}

test('a list worked in: cells edited, rows removed and restored, undo, history, rename, new list', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const run = new RunPanel(app)
  const results = new ResultsPage(app)

  await shell.open('Lists')
  await dialog.dropFile('contacts-sample.csv', sampleFile('contacts-sample.csv'))
  await expect(dialog.preview()).toContainText('Olivia')
  await dialog.next()
  await dialog.readAll()
  await dialog.finish()
  await expect(app.locator('[data-test="list-name"]')).toContainText('contacts-sample')
  await run.estimate()
  await run.run()
  await run.waitDone()
  await expect(results.rowCount()).toHaveText('50 rows')

  // A result cell is what the service answered: a double-click opens the row, it does not edit.
  await (await results.cell(0, 'Status')).dblclick()
  await expect(results.grid().locator('[data-test="cell-editor"]')).toBeHidden()
  await settled(results.drawer())
  await app.keyboard.press('Escape')
  await expect(results.drawer()).toBeHidden()

  // A domain that cannot exist is refused with its reason, and the cell keeps its value.
  const domainBefore = await (await results.cell(1, 'Company Domain')).innerText()
  await results.editCell(1, 'Company Domain', 'not a domain')
  await expect(app.getByText(/"not a domain" is not a website or a domain/)).toBeVisible()
  await expect(await results.cell(1, 'Company Domain')).toHaveText(domainBefore)

  // A domain corrected on an answered row: the row is to be sent again, its answer kept as history.
  await results.editCell(1, 'Company Domain', 'globex.com')
  await expect(await results.cell(1, 'Company Domain')).toHaveText('globex.com')
  await expect(await results.cell(1, 'Status')).toHaveText('Changed since answered')
  // A column that does not say who the row is changes nothing else.
  await results.editCell(2, 'City', 'Lisbon')
  await expect(await results.cell(2, 'City')).toHaveText('Lisbon')
  await expect(await results.cell(2, 'Status')).not.toHaveText('Changed since answered')
  await shell.screenshot('list-edit-cells')

  // F2 edits the cell the keyboard is on; Escape leaves it as it was.
  await (await results.cell(3, 'City')).click()
  await app.keyboard.press('F2')
  const editor = results.grid().locator('[data-test="cell-editor"]')
  await expect(editor).toBeFocused()
  await editor.fill('Nowhere')
  await editor.press('Escape')
  await expect(editor).toBeHidden()
  await expect(await results.cell(3, 'City')).not.toHaveText('Nowhere')
  // Delete empties the cell the keyboard is on, as a spreadsheet's does; Ctrl+Z brings it back.
  const city = await (await results.cell(3, 'City')).innerText()
  expect(city).not.toBe('')
  await app.keyboard.press('Delete')
  await expect(await results.cell(3, 'City')).toHaveText('')
  await app.keyboard.press('ControlOrMeta+z')
  await expect(await results.cell(3, 'City')).toHaveText(city)

  // The estimate counts the changed row: it is the one row to send.
  await app.locator('[data-test="run-again"]').click()
  await run.estimate()
  await expect(run.estimateTable()).toContainText(/Rows to send\s*1\b/)
  await shell.screenshot('list-edit-estimate')

  // Select rows 5 to 7 by their numbers (a click, a Shift-click) and one more with Ctrl; Delete removes them.
  await results.selectRow(4)
  await results.selectRow(6, ['Shift'])
  await results.selectRow(9, ['ControlOrMeta'])
  await expect(app.locator('[data-test="selected-count"]')).toHaveText('4 selected')
  await expect(results.row(5)).toHaveClass(/selected/)
  await shell.screenshot('list-edit-selected')
  await app.keyboard.press('Delete')
  await expect(results.rowCount()).toHaveText('46 rows')
  await expect(app.locator('[data-test="removed-rows"]')).toHaveText('Removed rows (4)')

  // Undo brings them back, redo removes them again.
  await app.keyboard.press('ControlOrMeta+z')
  await expect(results.rowCount()).toHaveText('50 rows')
  await app.keyboard.press('ControlOrMeta+Shift+z')
  await expect(results.rowCount()).toHaveText('46 rows')

  // The export holds the edits and not the removed rows.
  const exported = await exportAllCsv(app)
  expect(exported).toHaveLength(46)
  expect(exported.find((row) => row['Company Domain'] === 'globex.com')).toBeTruthy()
  expect(exported.find((row) => row['City'] === 'Lisbon')).toBeTruthy()
  // Rows 5, 6, 7 and 10 of the file are not there (each person's email is theirs alone).
  const file = Papa.parse<Record<string, string>>(
    Buffer.from(sampleFile('contacts-sample.csv')).toString('utf8'),
    {
      header: true,
      skipEmptyLines: true,
    },
  ).data
  const removed = [4, 5, 6, 9].map((at) => `${file[at]!['First Name']} ${file[at]!['Last Name']}`)
  const names = exported.map((row) => `${row['First Name']} ${row['Last Name']}`)
  for (const name of removed) expect(names).not.toContain(name)

  // Everything survives a reload: the edits, the removals and the history.
  await app.reload()
  await expect(results.rowCount()).toHaveText('46 rows')
  await expect(await results.cell(1, 'Company Domain')).toHaveText('globex.com')
  await app.locator('[data-test="history"]').click()
  const history = app.locator('[data-test="list-history"]')
  await settled(history)
  await expect(history.locator('[data-test="history-entry"]')).toHaveCount(3)
  await expect(history.locator('[data-test="history-entry"]').first()).toContainText('Removed 4 rows')
  await shell.screenshot('list-edit-history')
  // Back to the point right after the first edit: the later edit and the removal are undone.
  await history
    .locator('[data-test="history-entry"]')
    .last()
    .getByRole('button', { name: 'Go back to here' })
    .click()
  await expect(results.rowCount()).toHaveText('50 rows')
  await expect(history.locator('[data-test="history-entry"]').first()).toContainText('Undone')
  await app.keyboard.press('Escape')
  await expect(await results.cell(2, 'City')).not.toHaveText('Lisbon')
  await expect(await results.cell(1, 'Company Domain')).toHaveText('globex.com')

  // Remove two rows again and restore them from "Removed rows".
  await results.selectRow(0)
  await results.selectRow(1, ['Shift'])
  await app.locator('[data-test="remove-rows"]').click()
  await expect(results.rowCount()).toHaveText('48 rows')
  await app.locator('[data-test="removed-rows"]').click()
  await expect(results.rowCount()).toHaveText('2 rows removed')
  // The view of the removed rows is not a filter to clear.
  await expect(app.locator('[data-test="clear-filters"]')).toBeHidden()
  await expect(await results.cell(1, 'Company Domain')).toHaveText('globex.com')
  await expect(await results.cell(0, 'Status')).toHaveText('Removed')
  await shell.screenshot('list-edit-removed-rows')
  await app.locator('[data-test="restore-all"]').click()
  await expect(app.locator('[data-test="removed-rows"]')).toBeHidden()
  await expect(results.rowCount()).toHaveText('50 rows')

  // Rename the list by clicking its name.
  await app.locator('[data-test="list-name"]').click()
  await app.locator('[data-test="list-name-input"] input').fill('Trade fair leads')
  await app.keyboard.press('Enter')
  await expect(app.locator('[data-test="list-name"]')).toHaveText('Trade fair leads')

  // A new list of the rows the filter shows, each with its result.
  await app.locator('[data-test="filter-found"]').click()
  await app.getByText('Found only', { exact: true }).click()
  await expect(results.rowCount()).toContainText(' of ')
  const found = Number((await results.rowCount().innerText()).split(' of ')[0]!.replace(/\D/g, ''))
  await app.locator('[data-test="new-list-from-rows"]').click()
  await app.locator('[data-test="list-from-rows-name"] input').fill('Found at the fair')
  await app.getByRole('button', { name: 'Make the list' }).click()
  await expect(app.locator('[data-test="list-name"]')).toHaveText('Found at the fair')
  await expect(results.rowCount()).toHaveText(`${found} rows`)
  expect(await shownRows(results)).toBe(found)
  const copied = await exportAllCsv(app)
  expect(copied).toHaveLength(found)
  expect(copied.every((row) => row['Status'] === 'found')).toBe(true)

  // On the lists page: the renamed list, and a duplicate of it.
  await shell.open('Lists')
  await expect(app.locator('[data-test="lists-table"]')).toContainText('Trade fair leads')
  await app
    .locator('[data-test="list-row"]', { hasText: 'Trade fair leads' })
    .locator('[data-test="list-duplicate"]')
    .click()
  await expect(app.locator('[data-test="lists-table"]')).toContainText('Trade fair leads (copy)')
  await shell.screenshot('list-edit-lists')
})

test('a new list of many rows shows its progress; cut off by a reload, it is not kept', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const results = new ResultsPage(app)
  await shell.open('Lists')
  await dialog.dropGenerated('big.csv', 400_000)
  await dialog.next()
  await dialog.readAll()
  await expect(dialog.review()).toBeVisible({ timeout: 120_000 })
  await dialog.finish()
  await expect(results.rowCount()).toHaveText('400,000 rows')

  const make = async (name: string) => {
    await app.locator('[data-test="new-list-from-rows"]').click()
    await app.locator('[data-test="list-from-rows-name"] input').fill(name)
    await app.getByRole('button', { name: 'Make the list' }).click()
  }
  await make('Copy')
  const progress = app.locator('[data-test="list-from-rows-progress"]')
  await expect(progress).toContainText(/[1-9][\d,]* of 400,000 rows copied/)
  await expect(app.getByRole('button', { name: 'Cancel' })).toBeDisabled()
  await shell.screenshot('list-from-rows-progress')
  await expect(app.locator('[data-test="list-name"]')).toHaveText('Copy', { timeout: 120_000 })
  await expect(results.rowCount()).toHaveText('400,000 rows')

  // Again, and the window reloads midway: the part made goes, and the user is told.
  await make('Cut short')
  await expect(progress).toContainText(/[1-9][\d,]* of 400,000 rows copied/)
  await app.reload()
  await expect(
    app.getByText('Making the list “Cut short” of another list’s rows was cut off; it was not kept.', {
      exact: false,
    }),
  ).toBeVisible()
  await shell.open('Lists')
  await expect(app.locator('[data-test="lists-table"]')).toContainText('Copy')
  await expect(app.locator('[data-test="lists-table"]')).not.toContainText('Cut short')
  await expect(app.locator('[data-test="import-interrupted"]')).toHaveCount(0)
})
