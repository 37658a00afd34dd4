import { readFileSync } from 'node:fs'
import { expect, test } from './fixtures'
import {
  cutOptions,
  firstCellSeen,
  LibraryPage,
  ResultsPage,
  enrichedRows,
  seedDatabase,
  seededRows,
  settled,
} from './pages/library'
import { ShellPage } from './pages/shell'
import { countRecords } from './pages/database'
import { noteWorkerCalls, workerCalls } from './pages/worker-calls'

test.describe.configure({ timeout: 240_000 })

test('a 200,000-row list: scroll, filter, drawer, columns, export', async ({ app }) => {
  const shell = new ShellPage(app)
  const results = new ResultsPage(app)
  await shell.open('Lists')
  const listId = await seedDatabase(app, 'tradeFair')
  await results.goto(listId)
  await app.reload()
  await expect(results.grid()).toBeVisible()
  await expect(results.rowCount()).toHaveText('200,000 rows')
  await expect(results.row(0)).toContainText('First0')
  await shell.screenshot('library-results')

  await results.scroller().focus()
  await app.keyboard.press('End')
  await expect(results.row(seededRows - 1)).toContainText(`First${seededRows - 1}`)
  expect(Math.max(...(await results.shownNumbers()))).toBe(seededRows)
  await shell.screenshot('library-results-end')
  await app.keyboard.press('Home')
  await expect(results.row(0)).toContainText('First0')
  await results.header().locator('[data-column="index"]').click()
  await results.header().locator('[data-column="index"]').click()
  await expect(results.row(0)).toContainText(`First${seededRows - 1}`)
  await results.header().locator('[data-column="index"]').click()
  await expect(results.row(0)).toContainText('First0')
  await results.scroller().evaluate((element) => {
    element.scrollTop = element.scrollHeight / 2
  })
  await expect(async () => {
    const shown = await results.shownNumbers()
    expect(shown.length).toBeGreaterThan(5)
    expect(Math.abs(shown[0]! - seededRows / 2)).toBeLessThan(200)
  }).toPass()

  // A filter chosen with the grid scrolled halfway shows its first matches, not rows from the old place.
  await app.locator('[data-test="safe-to-send"]').click()
  const safeRows = enrichedRows / 2
  await expect(results.rowCount()).toHaveText(`${safeRows.toLocaleString('en-US')} of 200,000 rows`)
  await expect(results.row(0)).toBeVisible()
  expect(await results.scroller().evaluate((element) => element.scrollTop)).toBe(0)
  const statuses = await results.grid().locator('.row .tag').allInnerTexts()
  expect(statuses.filter((text) => text.includes('Catch-all'))).not.toEqual([])
  expect(statuses.filter((text) => text.includes('Catch-all') && !text.includes('safe'))).toEqual([])
  await shell.screenshot('library-results-safe')
  // A status's meaning shows in a tooltip when the pointer rests on its tag.
  await results.grid().locator('.row .tag', { hasText: 'Catch-all, verified safe' }).first().hover()
  await expect(app.locator('.n-tooltip')).toHaveText(
    'The domain accepts every address, and catch-all verification judged this address safe.',
  )
  await shell.screenshot('library-results-tip')

  await results.open(1)
  await expect(results.drawer()).toContainText('Row 2')
  await expect(results.drawer()).toContainText('catch-all verification judged this address safe')
  await expect(results.drawer()).toContainText('Trade fair 2026')
  await settled(results.drawer())
  await shell.screenshot('library-results-drawer')
  await app.keyboard.press('Escape')
  await expect(results.drawer()).toBeHidden()

  await app.locator('[data-test="column-chooser"]').click()
  await app.locator('[data-test="column-chooser-menu"]').getByText('Notes', { exact: true }).click()
  await shell.screenshot('library-results-columns')
  await expect(results.header()).not.toContainText('Notes')
  // The query worker has kept the list's facet columns whole once the grid was quiet: the window
  // opened again reads them from that record, and the count and export below are of those columns.
  await expect.poll(() => countRecords(app, ['listColumns']), { timeout: 30_000 }).toBeGreaterThan(0)
  await app.reload()
  await expect(results.header()).toContainText('Email status')
  await expect(results.header()).not.toContainText('Notes')
  await app.locator('[data-test="column-chooser"]').click()
  await app.locator('[data-test="column-chooser-menu"]').getByText('Notes', { exact: true }).click()
  await expect(results.header()).toContainText('Notes')
  await app.keyboard.press('Escape')

  await app.locator('[data-test="filter-found"]').click()
  await app.getByText('Found only', { exact: true }).click()
  await expect(results.rowCount()).toHaveText('37,500 of 200,000 rows')
  const downloadStarted = app.waitForEvent('download')
  await app.locator('[data-test="export"]').click()
  await app.getByText('CSV for a spreadsheet (formulas neutralised) — the 37,500 rows shown').click()
  const download = await downloadStarted
  expect(download.suggestedFilename()).toBe('Trade fair 2026 (enriched).csv')
  const text = readFileSync((await download.path())!, 'utf8')
  expect(text.charCodeAt(0)).toBe(0xfeff)
  const lines = text.slice(1).split('\r\n')
  expect(lines[0]!.startsWith('First name,Last name,Company domain,Notes,Email,Email status,Phone')).toBe(
    true,
  )
  expect(lines[0]!.endsWith(',Status,Result from,Note')).toBe(true)
  expect(lines[2]).toContain(`First1,Last1,d1.com,"'=HYPERLINK(""x"")",first1@d1.com,catch_all_safe`)
  expect(lines.filter((line) => line !== '')).toHaveLength(37_501)
})

test('the library: prefix search, facets, a contact and a company with where they came from', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const library = new LibraryPage(app)
  await shell.open('Library')
  const listId = await seedDatabase(app, 'library')
  await noteWorkerCalls(app)
  await app.reload()
  await expect(library.count()).toHaveText('300 found')
  // Opened, the page has its library worker read the people's index ahead of a search's count.
  await expect.poll(() => workerCalls(app)).toContain('readIndexAhead')
  await expect(library.tab('Contacts · 300')).toBeVisible()
  await shell.screenshot('library-contacts')
  // Scrolled sideways to its last column, each contact's name stays at the grid's left edge.
  await library
    .grid()
    .locator('[data-test="grid-scroller"]')
    .evaluate((element) => (element.scrollLeft = element.scrollWidth))
  await expect(library.grid()).toHaveClass(/sideways/)
  await expect.poll(async () => (await firstCellSeen(library.grid(), 0)).seen).toBeTruthy()
  const name = await firstCellSeen(library.grid(), 0)
  expect(name).toMatchObject({ x: name.edge, seen: name.text })
  await shell.screenshot('library-scrolled-sideways')
  await library
    .grid()
    .locator('[data-test="grid-scroller"]')
    .evaluate((element) => (element.scrollLeft = 0))

  const countries = ['France · 75', 'Germany · 75', 'Spain · 75', 'United Kingdom · 75']
  expect(await library.facetOptions('country')).toEqual(countries)
  await library.search().fill('MARA')
  await expect(library.count()).toHaveText('75 found')
  // The filters count what the search finds: every Mara is in France, a third at each status.
  await expect.poll(() => library.facetOptions('country')).toEqual(['France · 75'])
  const statuses = ['Catch-all · 25', 'Catch-all, verified safe · 25', 'Deliverable · 25']
  expect(await library.facetOptions('emailStatus')).toEqual(statuses)
  // A status picked: the countries count the Maras it holds; the statuses stay as they were, each
  // what it would find with the search, not zero beside the one picked.
  await library.facet('emailStatus').click()
  await library.options().filter({ hasText: 'Catch-all · 25' }).click()
  await expect(library.count()).toHaveText('25 found')
  await expect(library.options()).toHaveText(statuses)
  // The menu is as wide as its longest option ("Catch-all, verified safe · 25"): none is cut short.
  expect(await cutOptions(app)).toEqual([])
  await shell.screenshot('library-facets-of-search')
  await app.keyboard.press('Escape')
  await expect.poll(() => library.facetOptions('country')).toEqual(['France · 25'])
  await library.facet('emailStatus').click()
  await library.options().filter({ hasText: 'Catch-all · 25' }).click()
  await app.keyboard.press('Escape')
  await expect(library.count()).toHaveText('75 found')
  // People are searched where their index lives: the library worker, not the page.
  expect(app.workers().map((worker) => worker.url())).toContainEqual(
    expect.stringMatching(/\/assets\/library-[\w-]+\.js$/),
  )
  // Newest first; the seed answered everyone at one time, so ties go by the order they were stored,
  // last first.
  await expect(library.grid().locator('.row:not(.pending)[data-row-index="0"]')).toContainText(
    'Mara Person296',
  )
  await shell.screenshot('library-search')
  await library.search().fill('mara.12@')
  await expect(library.count()).toHaveText('1 found')
  // A seniority reads as its filter names it.
  await library.search().fill('mara.20@')
  await expect(library.count()).toHaveText('1 found')
  await expect(library.grid().locator('.row:not(.pending)[data-row-index="0"]')).toContainText('VP')
  await library.search().fill('d7.com')
  await expect(library.count()).toHaveText('3 found')
  // Any word of a name, in any case and with or without its accents: Person29 and Person290–299.
  await library.search().fill('PERSÓN29')
  await expect(library.count()).toHaveText('11 found')
  await library.search().fill('lina person2')
  await expect(library.count()).toHaveText('28 found')
  await shell.screenshot('library-search-words')
  await library.search().fill('')
  await expect(library.count()).toHaveText('300 found')

  await library.grid().locator('.row:not(.pending)[data-row-index="0"]').click()
  await expect(library.drawer()).toContainText('Where it came from')
  await expect(library.drawer()).toContainText('Trade fair 2026')
  await settled(library.drawer())
  await shell.screenshot('library-contact-drawer')
  await library.drawer().getByRole('link', { name: 'Trade fair 2026' }).click()
  await expect(app).toHaveURL(new RegExp(`#/lists/${listId}$`))
  await shell.open('Library')

  await library.tab('Companies · 100').click()
  await expect(library.count()).toHaveText('100 found')
  await library.search().fill('company 4')
  await expect(library.count()).toHaveText('11 found')
  // Company 4 and Companies 40–49, even ones in retail.
  await expect.poll(() => library.facetOptions('industry')).toEqual(['Retail · 6', 'Software · 5'])
  // Retail picked: 6 found, and the industries still read what each finds with the words.
  await library.facet('industry').click()
  await library.options().filter({ hasText: 'Retail · 6' }).click()
  await expect(library.count()).toHaveText('6 found')
  await expect(library.options()).toHaveText(['Retail · 6', 'Software · 5'])
  await shell.screenshot('library-companies-facets')
  await library.options().filter({ hasText: 'Retail · 6' }).click()
  await app.keyboard.press('Escape')
  await expect(library.count()).toHaveText('11 found')
  // A company opens its page; its profile is a part of it.
  await library.grid().locator('.row:not(.pending)[data-row-index="0"]').click()
  await app.locator('[data-test="company-tab-profile"]').click()
  await expect(library.company()).toContainText('Company 4')
  await expect(library.company().locator('[data-test="company-funding"]')).toContainText('$25M')
  await expect(library.company().locator('[data-test="company-departments"]')).toContainText('Engineering')
  await expect(library.company().locator('[data-test="company-technologies"]')).toContainText('postgresql')
  await expect(library.company().getByRole('link', { name: 'Funding database' })).toHaveAttribute(
    'href',
    'https://fundingdb.example/4',
  )
  await expect(app.locator('[data-test="company-profile"]')).toContainText('Software in France')
  await expect(library.company()).toContainText('Series B')
  await shell.screenshot('library-company')
})
