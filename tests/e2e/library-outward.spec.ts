import { readFileSync } from 'node:fs'
import Papa from 'papaparse'
import { expect, test } from './fixtures'
import { LibraryPage, ResultsPage, seedDatabase, settled } from './pages/library'
import { ShellPage } from './pages/shell'

test.describe.configure({ timeout: 180_000 })

/** The library's seed: 300 people answered on "Trade fair 2026", a Mara every fourth, the newest last. */
test('the library outward: export what a search shows, make a list of it, forget a person', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const library = new LibraryPage(app)
  const results = new ResultsPage(app)
  await shell.open('Library')
  const tradeFair = await seedDatabase(app, 'library')
  await app.reload()
  await expect(library.count()).toHaveText('300 found')
  await library.search().fill('mara')
  await expect(library.count()).toHaveText('75 found')

  // Export: the 75 Maras, newest first, as the grid shows them.
  await library.exportButton().click()
  const downloadStarted = app.waitForEvent('download')
  await app.locator('.n-dropdown-option').filter({ hasText: 'CSV — the 75 contacts shown' }).click()
  const download = await downloadStarted
  expect(download.suggestedFilename()).toBe('Library contacts.csv')
  const text = readFileSync((await download.path())!, 'utf8')
  expect(text.startsWith('\uFEFF')).toBe(true)
  const rows = Papa.parse<Record<string, string>>(text.slice(1), { header: true, skipEmptyLines: true }).data
  expect(rows).toHaveLength(75)
  expect(rows.every((row) => row['Name']!.startsWith('Mara Person'))).toBe(true)
  expect(rows[0]).toMatchObject({
    Name: 'Mara Person296',
    Email: 'mara.296@d96.com',
    'Company domain': 'd96.com',
    Country: 'France',
    'Network URL': 'https://network.example/in/person-296',
    'Found by': 'Trade fair 2026',
  })
  expect(rows.at(-1)!['Name']).toBe('Mara Person0')
  await expect(app.getByText('Exported 75 records to Library contacts.csv.')).toBeVisible()
  await shell.screenshot('library-outward-export')

  // A new list of the people shown opens with them, answered from the library, ready for phones.
  await library.newListButton().click()
  await expect(app).toHaveURL(/#\/lists\/[^/]+$/)
  const newList = app.url().split('/').at(-1)!
  await expect(results.rowCount()).toHaveText('75 rows')
  await expect(app.locator('[data-test="list-name"]')).toHaveText('People from the library (mara)')
  await expect(results.row(0)).toContainText('Mara')
  await expect(results.row(0)).toContainText('Person296')
  await expect(results.row(0)).toContainText('mara.296@d96.com')
  await shell.screenshot('library-outward-new-list')

  // Forget Mara Person296: the drawer counts the rows holding her answer first.
  await shell.open('Library')
  await library.search().fill('person296')
  await expect(library.count()).toHaveText('1 found')
  await library.grid().locator('.row:not(.pending)').first().click()
  await expect(library.drawer()).toContainText('Mara Person296')
  await settled(library.drawer())
  await library.drawer().locator('[data-test="forget-ask"]').click()
  // Counted over every list's rows in the library worker, which a loaded machine may slow.
  await expect(library.drawer().locator('[data-test="forget-count"]')).toContainText(
    '2 list rows hold their answer',
    { timeout: 30_000 },
  )
  await expect(library.drawer().locator('[data-test="forget-count"]')).toContainText('Trade fair 2026: 1')
  await shell.screenshot('library-outward-forget')
  await library.drawer().locator('[data-test="forget-confirm"]').click()
  await expect(library.drawer()).toBeHidden()
  await expect(library.count()).toHaveText('0 found')
  await library.search().fill('mara')
  await expect(library.count()).toHaveText('74 found')
  await library.search().fill('')
  await expect(library.count()).toHaveText('299 found')
  await expect(library.tab('Contacts · 299')).toBeVisible()

  // Her rows keep the cells imported, without her answer.
  await results.goto(newList)
  await expect(results.row(0)).toContainText('Person296')
  await expect(results.row(0)).not.toContainText('mara.296@d96.com')
  await expect(results.row(1)).toContainText('mara.292@d92.com')
  await results.goto(tradeFair)
  await results.scroller().focus()
  await app.keyboard.press('End')
  await expect(results.row(296)).toContainText('Person296')
  await expect(results.row(296)).not.toContainText('mara.296@d96.com')
  await expect(results.row(295)).toContainText('@d95.com')
  await shell.screenshot('library-outward-forgotten-row')
  // And after a reload, still.
  await app.reload()
  await expect(results.rowCount()).toHaveText('300 rows')
})
