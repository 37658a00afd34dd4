import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { ImportDialog, sampleFile } from './pages/import'
import { ResultsPage } from './pages/library'
import { exportAllCsv } from './pages/lists'
import { ShellPage } from './pages/shell'

/*
 * The web host serves the app to every tab that opens its address, all on one database. What one
 * tab is doing to a list, another leaves alone, and takes over only once that tab is gone.
 */

const csv = (lines: string[]) => new TextEncoder().encode(lines.join('\n'))

/** The claims a tab waits on to be let go (`window-locks.ts`), by name. */
const awaitedClaims = (page: Page) =>
  page.evaluate(async () => ((await navigator.locks.query()).pending ?? []).map((lock) => lock.name))

/** The sample list dropped on the first tab's Lists page: its import dialog, at the preview. */
async function dropSample(page: Page): Promise<ImportDialog> {
  const dialog = new ImportDialog(page)
  await new ShellPage(page).open('Lists')
  await dialog.dropFile('contacts-sample.csv', sampleFile('contacts-sample.csv'))
  return dialog
}

async function secondTab(first: Page, url: string): Promise<Page> {
  const second = await first.context().newPage()
  await second.goto(url)
  return second
}

test('a second tab leaves the rows the first is adding to a list, and takes them back once it closes', async ({
  app,
  webHost,
}) => {
  const dialog = await dropSample(app)
  await dialog.importAll()
  await expect(new ResultsPage(app).rowCount()).toHaveText('50 rows')
  const listId = new URL(app.url()).hash.split('/').at(-1)!

  // The first tab adds a file's rows and stops at their review: they are stored, not yet the list's.
  const addFile = async (name: string, lines: string[]) => {
    await dialog.dropFile(name, csv(lines))
    await expect(dialog.dropOffer()).toBeVisible()
    // A click while the offer still opens is lost.
    await app.waitForFunction(
      () => !document.getAnimations().some((motion) => motion instanceof CSSTransition),
    )
    await app.locator('[data-test="drop-offer-append"]').click()
    await dialog.next()
    await dialog.readAll()
    await expect(dialog.review()).toBeVisible()
  }
  await addFile('fair.csv', [
    'First Name,Last Name,Company Domain',
    'Jane,Doe,acme-rockets.com',
    'Rick,Roe,zenith-labs.io',
    'Ann,Poe,zenith-labs.io',
  ])

  // A second tab starts meanwhile: it finds the list taking rows, and waits for the first to let go
  // of it rather than taking them back as cut off.
  const second = await secondTab(app, webHost.url)
  await new ShellPage(second).open('Lists')
  await second.locator('[data-test="list-row"]', { hasText: 'contacts-sample' }).click()
  const otherResults = new ResultsPage(second)
  await expect(otherResults.rowCount()).toHaveText('50 rows')
  await expect.poll(() => awaitedClaims(second)).toContain(`leadkeeper:list:${listId}`)

  await dialog.finish()
  await expect(app.getByText('Added 3 rows from “fair.csv”. Undo takes them away again.')).toBeVisible()
  await expect(otherResults.rowCount()).toHaveText('53 rows')
  await expect.poll(() => awaitedClaims(second)).toEqual([])
  await expect(second.getByText(/was cut off/)).toHaveCount(0)
  const exported = await exportAllCsv(second)
  expect(exported.map((row) => row['First Name']).slice(-3)).toEqual(['Jane', 'Rick', 'Ann'])

  // Again, and the first tab closes at the review: the second takes the rows back and says so.
  await addFile('webinar.csv', ['First Name,Last Name,Company Domain', 'Lee,Moe,acme-rockets.com'])
  await expect.poll(() => awaitedClaims(second)).toContain(`leadkeeper:list:${listId}`)
  await app.close()
  await expect(
    second.getByText(/Adding the rows of “webinar.csv” to “contacts-sample” was cut off/),
  ).toBeVisible()
  await expect(otherResults.rowCount()).toHaveText('53 rows')
  expect(await exportAllCsv(second)).toHaveLength(53)
})

test('a second tab neither shows the first tab’s import as interrupted nor deletes it, until it closes', async ({
  app,
  webHost,
}) => {
  const dialog = await dropSample(app)
  await dialog.next()
  await dialog.readAll()
  await expect(dialog.review()).toBeVisible()

  const second = await secondTab(app, webHost.url)
  await new ShellPage(second).open('Lists')
  const row = second.locator('[data-test="list-row"]', { hasText: 'contacts-sample' })
  await expect(row).toBeVisible()
  await expect.poll(() => awaitedClaims(second)).toEqual([expect.stringMatching(/^leadkeeper:list:/)])
  await expect(second.locator('[data-test="import-interrupted"]')).toHaveCount(0)

  // Deleting it there is refused, with why, and the list stays.
  await row.locator('[data-test="list-delete"]').click()
  await second.getByRole('button', { name: 'Delete list' }).click()
  await expect(second.getByText(/Rows are being read into this list in a window of Leadkeeper/)).toBeVisible()
  await expect(row).toBeVisible()

  // The first tab closes mid-review: the import is now one cut off, to take up again or discard.
  await app.close()
  await expect(second.locator('[data-test="import-interrupted"]')).toContainText(
    'The import of “contacts-sample” was interrupted',
  )
})
