import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { countRecords } from './pages/database'
import { LibraryPage, ResultsPage, seedDatabase } from './pages/library'
import { admit, moveThroughTest, openMoverPage } from './pages/origin-move'
import { ShellPage } from './pages/shell'

/**
 * The desktop app's data moves from the origin it had under file:// to app://bundle with the app's
 * own reader (src/origin-move/source.ts, the hidden window's preload) and writer (sink.ts, mover.ts,
 * the app's window before it opens its database). Here the two origins are the web host's two
 * names, http://127.0.0.1:port and http://localhost:port, and the test carries each request and its
 * answer between them where main relays them over IPC in the desktop app.
 */
test.describe.configure({ timeout: 180_000 })

const rows = 20_000
const enriched = rows / 4

/** The app's database version as IndexedDB counts it: Dexie's (`src/db/schema.ts`, 16) × 10. */
const appDatabaseVersion = 160

/**
 * The version of the app's database on this page's origin, read by an opening that waits behind
 * any upgrade under way (so it answers once the upgrade has committed).
 */
function databaseVersion(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        const request = indexedDB.open('leadkeeper')
        request.onsuccess = () => {
          const version = request.result.version
          request.result.close()
          resolve(version)
        }
        request.onerror = () => resolve(0)
      }),
  )
}

/** The second origin of the same web host. */
const otherOrigin = (origin: string) => origin.replace('127.0.0.1', 'localhost')

test('a version-2 database moves to another origin, where the app upgrades it and shows all of it', async ({
  app,
  webHost,
}) => {
  const source = app
  await seedDatabase(source, { rows, returnToApp: false })
  await openMoverPage(source, webHost.origin)

  const destination = await app.context().newPage()
  const there = otherOrigin(webHost.origin)
  await admit(app.context(), webHost.url, there)
  await openMoverPage(destination, there)
  const run = await moveThroughTest(destination, source)

  // lists 1, rows 20,000, facetCounts, contacts 300, companies 100, the rest empty.
  const total = run.progress.at(-1)!.total
  expect(total).toBeGreaterThan(rows + 400)
  expect(run.progress.at(-1)!.done).toBe(total)
  // It moves in many steps, each further than the last: the user sees it advance.
  const steps = run.progress.map((step) => step.done)
  expect(new Set(steps).size).toBeGreaterThan(20)
  expect(steps).toEqual([...steps].sort((a, b) => a - b))
  expect(run.counts['leadkeeper']).toMatchObject({ lists: 1, rows, contacts: 300, companies: 100 })

  // The source is read, never changed.
  expect(await countRecords(source, ['rows'])).toBe(rows)

  // The app opens on the new origin: Dexie finds the version-2 database and upgrades it to its own.
  const shell = new ShellPage(destination)
  await destination.goto(`${there}/`)
  await expect.poll(() => databaseVersion(destination), { timeout: 120_000 }).toBe(appDatabaseVersion)
  await expect(destination.locator('[data-test="db-upgrade"]')).toBeHidden({ timeout: 120_000 })
  await shell.open('Lists')
  await expect(destination.getByText('Trade fair 2026').first()).toBeVisible()
  const results = new ResultsPage(destination)
  await results.goto()
  await expect(results.rowCount()).toHaveText('20,000 rows')
  await expect(results.row(0)).toContainText('First0')
  await destination.locator('[data-test="safe-to-send"]').click()
  await expect(results.rowCount()).toHaveText(`${(enriched / 2).toLocaleString('en-US')} of 20,000 rows`)

  const library = new LibraryPage(destination)
  await shell.open('Library')
  await expect(library.count()).toHaveText('300 found')
  await library.search().fill('MARA')
  await expect(library.count()).toHaveText('75 found')
  await library.search().fill('')
  await library.tab('Companies · 100').click()
  await expect(library.count()).toHaveText('100 found')
})

test('a current database cut off half-way moves again from nothing on the next start, once', async ({
  app,
  webHost,
}) => {
  // The source is what today's app keeps: the seeded list upgraded by the app (row blocks, typed
  // facet columns, the library in blocks with its key index), and a column the user hid.
  const source = app
  const shell = new ShellPage(source)
  await shell.open('Lists')
  await seedDatabase(source, { rows, awaitUpgrade: false })
  await expect.poll(() => databaseVersion(source), { timeout: 120_000 }).toBe(appDatabaseVersion)
  await expect(source.locator('[data-test="db-upgrade"]')).toBeHidden({ timeout: 120_000 })
  const results = new ResultsPage(source)
  await results.goto()
  await expect(results.rowCount()).toHaveText('20,000 rows')
  await source.locator('[data-test="column-chooser"]').click()
  await source.locator('[data-test="column-chooser-menu"]').getByText('Notes', { exact: true }).click()
  await source.keyboard.press('Escape')
  await expect(results.header()).not.toContainText('Notes')
  await shell.open('Library')
  await expect(new LibraryPage(source).count()).toHaveText('300 found')
  await openMoverPage(source, webHost.origin)

  const destination = await app.context().newPage()
  const there = otherOrigin(webHost.origin)
  await admit(app.context(), webHost.url, there)
  await openMoverPage(destination, there)
  // The window closes after the first page of the list's blocks: part of the data is written.
  await expect(moveThroughTest(destination, source, { cutAfter: 'listBlocks' })).rejects.toThrow(
    'The window was closed.',
  )
  const blocks = await countRecords(destination, ['listBlocks', 'listFacets'])
  expect(blocks).toBeGreaterThan(0)
  expect(blocks).toBeLessThan(40)

  // The next start: the half-written copy is replaced by a whole one.
  await destination.reload()
  await openMoverPage(destination, there)
  const run = await moveThroughTest(destination, source)
  expect(run.progress.at(-1)!.done).toBe(run.progress.at(-1)!.total)
  expect(run.counts['leadkeeper']).toMatchObject({ listBlocks: 20, listFacets: 20, listCompanies: 20 })

  const moved = new ResultsPage(destination)
  const library = new LibraryPage(destination)
  const destinationShell = new ShellPage(destination)
  await destination.goto(`${there}/`)
  await destinationShell.open('Library')
  await expect(library.count()).toHaveText('300 found')
  await library.search().fill('mara.12@')
  await expect(library.count()).toHaveText('1 found')
  await moved.goto()
  await expect(moved.rowCount()).toHaveText('20,000 rows')
  await expect(moved.header()).toContainText('Email status')
  await expect(moved.header()).not.toContainText('Notes')
  await moved.scroller().focus()
  await destination.keyboard.press('End')
  await expect(moved.row(rows - 1)).toContainText(`First${rows - 1}`)
  await destination.locator('[data-test="safe-to-send"]').click()
  await expect(moved.rowCount()).toHaveText(`${(enriched / 2).toLocaleString('en-US')} of 20,000 rows`)
})
