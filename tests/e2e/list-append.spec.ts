import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { ImportDialog, sampleFile } from './pages/import'
import { ResultsPage, settled } from './pages/library'
import { exportAllCsv } from './pages/lists'
import { ShellPage } from './pages/shell'

/** Waits for the page's transitions to end: a dialog caught opening shows faded. */
const still = (page: Page) =>
  page.waitForFunction(() => !document.getAnimations().some((motion) => motion instanceof CSSTransition))

const csv = (lines: string[]) => new TextEncoder().encode(lines.join('\n'))

test('a second file added to a list: columns by name, a new one, a duplicate, undo, redo, export', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const results = new ResultsPage(app)

  await shell.open('Lists')
  await dialog.dropFile('contacts-sample.csv', sampleFile('contacts-sample.csv'))
  await dialog.importAll()
  await expect(app.locator('[data-test="list-name"]')).toHaveText('contacts-sample')
  await expect(results.rowCount()).toHaveText('50 rows')

  // A file none of whose columns is the list's, picked with "Add rows from a file…": refused, with why.
  const chooser = app.waitForEvent('filechooser')
  await app.locator('[data-test="add-rows"]').click()
  await (
    await chooser
  ).setFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n') })
  await expect(dialog.preview()).toBeVisible()
  await dialog.next()
  await expect(app.locator('[data-test="append-refused"]')).toContainText('None of this file’s columns')
  await expect(app.locator('[data-test="import-start"]')).toBeDisabled()
  await app.keyboard.press('Escape')
  await expect(dialog.dialog()).toBeHidden()
  await expect(results.rowCount()).toHaveText('50 rows')
  // The same file again, taken as a list of its own from the refusal: the list keeps its rows.
  const again = app.waitForEvent('filechooser')
  await app.locator('[data-test="add-rows"]').click()
  await (
    await again
  ).setFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from('a,b\n1,2\n3,4\n') })
  await dialog.next()
  await app.locator('[data-test="append-import-instead"]').click()
  await expect(app.locator('[data-test="append-columns"]')).toBeHidden()
  await dialog.importAll()
  await expect(app.locator('[data-test="list-name"]')).toHaveText('other')
  await expect(results.rowCount()).toHaveText('2 rows')
  expect((await exportAllCsv(app)).map((row) => [row['a'], row['b']])).toEqual([
    ['1', '2'],
    ['3', '4'],
  ])
  await shell.open('Lists')
  await app
    .locator('[data-test="list-row"]', { hasText: 'contacts-sample' })
    .getByText('contacts-sample', { exact: true })
    .click()
  await expect(results.rowCount()).toHaveText('50 rows')

  // Another file dropped on the list's page: its headers in another case and order, a column the list
  // has not, Olivia Bennett again (row 1 of the list) and two new people.
  await dialog.dropFile(
    'fair.csv',
    csv([
      'last name,FIRST NAME,company domain,Lead Source',
      'Bennett,Olivia,northwindanalytics.com,Trade fair',
      'Doe,Jane,acme-rockets.com,Trade fair',
      'Roe,Rick,zenith-labs.io,Webinar',
    ]),
  )
  await expect(dialog.dropOffer()).toContainText('Add “fair.csv” to “contacts-sample”?')
  await still(app)
  await shell.screenshot('list-append-offer')
  await app.locator('[data-test="drop-offer-append"]').click()
  await expect(dialog.dialog()).toContainText('Add the rows of “fair.csv” to “contacts-sample”')
  await expect(dialog.preview()).toContainText('Jane')
  await dialog.next()

  // Matched by name to the list's columns; the new one is added after them.
  await expect(dialog.appendColumns()).toContainText('3 of the file’s 4 columns')
  await expect(dialog.appendColumn(0).locator('[data-test="append-target"]')).toContainText('Last Name')
  await expect(dialog.appendColumn(1).locator('[data-test="append-target"]')).toContainText('First Name')
  await expect(dialog.appendColumn(2).locator('[data-test="append-target"]')).toContainText('Company Domain')
  await expect(dialog.appendColumn(3)).toContainText('new: Lead Source')
  await still(app)
  await shell.screenshot('list-append-columns')

  // Checked as an import is: the row repeating the list's own row 1 is a duplicate, as row 51.
  await dialog.readAll()
  await expect(dialog.review()).toBeVisible()
  await expect(dialog.issueCount('duplicate')).toHaveText('1')
  await expect(app.locator('[data-test="issue-duplicate"]')).toContainText('row 51: Olivia Bennett')
  await shell.screenshot('list-append-review')
  await expect(app.locator('[data-test="import-finish"]')).toHaveText('Add 3 rows to the list')
  await dialog.finish()

  await expect(results.rowCount()).toHaveText('53 rows')
  // The rows added are the last: the grid is scrolled down to them.
  await results.scroller().evaluate((element) => element.scrollTo({ top: element.scrollHeight }))
  await expect(await results.cell(50, 'Lead Source')).toHaveText('Trade fair')
  await expect(await results.cell(51, 'First Name')).toHaveText('Jane')
  await expect(await results.cell(51, 'City')).toHaveText('')
  await expect(app.locator('[data-test="list-meta"]')).toContainText(
    '53 rows · 7 columns · from contacts-sample.csv and 1 more file',
  )
  await results.grid().scrollIntoViewIfNeeded()
  await shell.screenshot('list-append-list')

  // What the user receives: the list's rows, then the file's, in the list's columns and the new one.
  const exported = await exportAllCsv(app)
  expect(exported).toHaveLength(53)
  expect(Object.keys(exported[0]!).slice(0, 7)).toEqual([
    'First Name',
    'Last Name',
    'Company',
    'Company Domain',
    'Job Title',
    'City',
    'Lead Source',
  ])
  expect(exported[0]).toMatchObject({ 'First Name': 'Olivia', City: 'London', 'Lead Source': '' })
  expect(exported[51]).toMatchObject({
    'First Name': 'Jane',
    'Last Name': 'Doe',
    Company: '',
    'Company Domain': 'acme-rockets.com',
    'Lead Source': 'Trade fair',
  })
  expect(
    exported.filter((row) => row['Last Name'] === 'Bennett' && row['First Name'] === 'Olivia'),
  ).toHaveLength(2)

  // Undo takes the rows and the column away again; redo brings them back.
  await app.keyboard.press('ControlOrMeta+z')
  await expect(results.rowCount()).toHaveText('50 rows')
  await expect(app.locator('[data-test="list-meta"]')).toContainText('50 rows (3 removed) · 6 columns')
  await expect(app.locator('[data-test="list-meta"]')).not.toContainText('more file')
  const undone = await exportAllCsv(app)
  expect(undone).toHaveLength(50)
  expect(Object.keys(undone[0]!)).not.toContain('Lead Source')
  await app.keyboard.press('ControlOrMeta+Shift+z')
  await expect(results.rowCount()).toHaveText('53 rows')
  await results.scroller().evaluate((element) => element.scrollTo({ top: element.scrollHeight }))
  await expect(await results.cell(52, 'Lead Source')).toHaveText('Webinar')
  const redone = await exportAllCsv(app)
  expect(redone).toHaveLength(53)
  expect(redone[52]).toMatchObject({ 'First Name': 'Rick', 'Lead Source': 'Webinar' })

  // The history names it, after a reload too.
  await app.reload()
  await expect(results.rowCount()).toHaveText('53 rows')
  await app.locator('[data-test="history"]').click()
  const history = app.locator('[data-test="list-history"]')
  await settled(history)
  await expect(history.locator('[data-test="history-entry"]').first()).toContainText(
    'Added 3 rows from “fair.csv”',
  )
  await shell.screenshot('list-append-history')
})

test('a big append shows its progress; cancelled or cut off by a reload, it leaves the list as it was', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const results = new ResultsPage(app)
  await shell.open('Lists')
  await dialog.dropFile('contacts-sample.csv', sampleFile('contacts-sample.csv'))
  await dialog.importAll()
  await expect(results.rowCount()).toHaveText('50 rows')
  expect(await dialog.storedBlocks()).toBe(1)

  await dialog.dropGenerated('big.csv', 200_000)
  await app.locator('[data-test="drop-offer-append"]').click()
  await dialog.next()
  await expect(dialog.appendColumns()).toContainText('3 of the file’s 4 columns')
  await dialog.readAll()
  await expect(dialog.progressDetail()).toContainText(/[1-9][\d,]* rows/)
  await expect.poll(() => dialog.storedBlocks(), { timeout: 60_000 }).toBeGreaterThan(1)
  await dialog.screenshot('append-progress')
  await app.locator('[data-test="import-stop"]').click()
  await expect(app.getByText('Adding the rows was cancelled; the list is as it was.')).toBeVisible()
  await expect(app.locator('[data-test="import-start"]')).toBeVisible()
  expect(await dialog.storedBlocks()).toBe(1)

  // Again, and the window closes midway: the rows stored are taken back when the lists are read again.
  await dialog.readAll()
  await expect.poll(() => dialog.storedBlocks(), { timeout: 60_000 }).toBeGreaterThan(1)
  await app.reload()
  await expect(app.getByText(/Adding the rows of “big.csv” to “contacts-sample” was cut off/)).toBeVisible()
  await expect.poll(() => dialog.storedBlocks()).toBe(1)
  await expect(results.rowCount()).toHaveText('50 rows')
  await expect(app.locator('[data-test="list-meta"]')).toContainText('50 rows · 6 columns')
  const exported = await exportAllCsv(app)
  expect(exported).toHaveLength(50)
  expect(Object.keys(exported[0]!)).not.toContain('Notes')
})

test('on four cores an append is checked against the list all the same', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const results = new ResultsPage(app)
  await shell.open('Lists')
  await dialog.dropFile('contacts-sample.csv', sampleFile('contacts-sample.csv'))
  await dialog.importAll()
  // Where an import runs on two workers, an append's rows are checked by the one that stores them.
  await app.evaluate(() =>
    Object.defineProperty(navigator, 'hardwareConcurrency', { value: 4, configurable: true }),
  )
  await dialog.dropFile(
    'again.csv',
    csv(['First Name,Last Name,Company Domain', 'Liam,Carter,bluepeak.io', 'Liam,Carter,bluepeak.io']),
  )
  await app.locator('[data-test="drop-offer-append"]').click()
  await dialog.next()
  await dialog.readAll()
  await expect(dialog.issueCount('duplicate')).toHaveText('2')
  await dialog.finish()
  await expect(results.rowCount()).toHaveText('52 rows')
})
