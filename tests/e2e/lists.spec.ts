import { readFileSync } from 'node:fs'
import type { Page } from '@playwright/test'
import { controlClient } from '../../electron/sandbox/control/client'
import { expect, test } from './fixtures'
import { ImportDialog, sampleFile } from './pages/import'
import { cutOptions, LibraryPage, ResultsPage, settled } from './pages/library'
import { ProspectingPage } from './pages/prospecting'
import { exportAllCsv, exportFiles, oldExportName, plantOldExport, RunPanel } from './pages/lists'
import { ShellPage } from './pages/shell'

test('a messy list: mapped, priced, enriched, filtered, exported, and free the second time', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const run = new RunPanel(app)
  const results = new ResultsPage(app)

  await shell.open('Lists')
  await dialog.dropFile('contacts-messy.csv', sampleFile('contacts-messy.csv'))
  await expect(dialog.preview()).toContainText('René Müller')
  await dialog.next()
  await expect(app.locator('[data-test="map-full_name"]')).toContainText('Nom complet')
  await dialog.choose('map-email', 'Adresse pro')
  await dialog.readAll()
  await expect(dialog.review()).toBeVisible()
  await dialog.finish()
  await expect(app.locator('[data-test="list-name"]')).toContainText('contacts-messy')

  // The estimate before anything is spent: a range, duplicates sent once, nothing charged yet.
  await run.estimate()
  await expect(run.estimateCost()).toContainText(/0 to \d+ credits/)
  await expect(run.estimateTable()).toContainText('Rows to send')
  await shell.screenshot('lists-estimate')
  const before = await shell.credits().innerText()
  await run.run()
  await run.waitDone()
  await expect(shell.credits()).not.toHaveText(before)
  await expect(results.rowCount()).toContainText('24')
  await shell.screenshot('lists-enriched')

  // Filter by email status, open a row, export what is shown and read the file back.
  await app.locator('[data-test="filter-found"]').click()
  await app.getByText('Found only', { exact: true }).click()
  // The count is read once the filter has answered ("15 of 24 rows"), not the whole list's before it.
  await expect(results.rowCount()).toContainText(' of ')
  const foundText = await results.rowCount().innerText()
  const found = Number(foundText.split(' of ')[0]!.replace(/\D/g, ''))
  expect(found).toBeGreaterThan(0)
  await results.open(0)
  await settled(results.drawer())
  await expect(results.drawer()).toContainText('contacts-messy')
  await shell.screenshot('lists-row-drawer')
  await app.keyboard.press('Escape')
  // The email statuses' menu is as wide as their names and meanings need: none is cut short.
  await app.locator('[data-test="filter-email-status"]').click()
  await expect(app.locator('.n-base-select-option:visible').first()).toBeVisible()
  expect(await cutOptions(app)).toEqual([])
  await expect(app.locator('.n-base-select-menu:visible')).toHaveCSS('opacity', '1')
  await shell.screenshot('lists-email-filter')
  await app.keyboard.press('Escape')

  await plantOldExport(app)
  const downloadStarted = app.waitForEvent('download')
  await app.locator('[data-test="export"]').click()
  await app.getByText(/^CSV for a spreadsheet \(formulas neutralised\) — the [\d,]+ rows shown$/).click()
  const bytes = readFileSync((await (await downloadStarted).path())!)
  await expect(app.getByText(/^Exported [\d,]+ rows to contacts-messy/)).toBeVisible()
  await shell.screenshot('lists-exported')
  const text = bytes.toString('utf8')
  // The rows were written to the export's files as it went (one a worker), not held in the page's
  // memory: together they hold every byte of the download after its header line. An old export's
  // file is gone.
  const files = await exportFiles(app)
  expect(files.map((file) => file.name)).not.toContain(oldExportName)
  expect(files.length).toBeGreaterThan(0)
  expect(files.reduce((sum, file) => sum + file.size, 0)).toBe(bytes.length - (bytes.indexOf('\r\n') + 2))
  expect(text.charCodeAt(0)).toBe(0xfeff)
  const lines = text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
  expect(lines[0]!.startsWith('Nom complet;Société'.replace(';', ','))).toBe(true)
  expect(lines[0]).toContain('Email status')
  expect(lines).toHaveLength(found + 1)
  // Every input cell comes back as it was read, accents and all, through the file's UTF-8 bytes.
  const all = await exportAllCsv(app)
  expect(all).toHaveLength(24)
  expect(all.find((row) => row['Nom complet'] === 'René Müller')?.['Notes']).toBe('Salon 2024')
  expect(all.find((row) => row['Nom complet'] === 'José Nuñez')?.['Notes']).toBe(
    'Rencontré au salon; à rappeler',
  )

  // A second enrichment of the same list sends nothing and costs nothing.
  await app.locator('[data-test="run-again"]').click()
  await run.estimate()
  await expect(run.estimateCost()).toContainText('0 to 0 credits')
  await expect(app.locator('[data-test="run"]')).toBeDisabled()
  await shell.screenshot('lists-second-run')

  // On a train: no network at all, and the library still answers from this computer.
  const library = new LibraryPage(app)
  await shell.open('Library')
  await expect(library.count()).toBeVisible()
  await app.context().setOffline(true)
  const everyone = await library.count().innerText()
  await library.search().fill('ren')
  await expect(library.count()).not.toHaveText(everyone)
  await expect(library.grid().locator('.row').first()).toContainText('René Müller')
  await library.grid().locator('.row').first().click()
  await settled(library.drawer())
  await expect(library.drawer()).toContainText('René Müller')
  await expect(library.drawer()).toContainText('contacts-messy')
  await shell.screenshot('lists-library-offline')
})

test('an enrichment survives a reload of the window in the middle of its run', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const run = new RunPanel(app)
  await shell.open('Lists')
  await dialog.dropGenerated('big.csv', 3000)
  await dialog.importAll()
  await run.estimate()
  await run.run()
  await expect(run.state()).toHaveText('Running')
  await expect(run.counts()).not.toContainText('Rows sent, done0 / 3,000')
  await shell.screenshot('lists-running')
  await app.reload()
  await run.waitDone()
  await expect(run.counts()).toContainText('3,000 / 3,000')
  // Every row came home once, by key, and is stored in the list.
  await expect(new ResultsPage(app).rowCount()).toContainText('3,000 rows')
  const statuses = app.locator('[data-test="list-summary"]')
  await expect(statuses).toBeVisible()
})

/** Imports the clean sample (50 people) and lands on its list page. */
async function importSample(app: Page): Promise<void> {
  const dialog = new ImportDialog(app)
  await new ShellPage(app).open('Lists')
  await dialog.dropFile('contacts-sample.csv', sampleFile('contacts-sample.csv'))
  await dialog.importAll()
}

test('a submission whose answer was lost asks before anything is sent again', async ({ app }) => {
  const control = controlClient(await new ProspectingPage(app).sandboxUrl())
  await importSample(app)
  const run = new RunPanel(app)
  await run.estimate()
  // The service creates the request (and may charge it), then the answer is lost.
  await control.setFaults([{ endpoint: 'POST /async', kind: 'status500AfterCreate', times: 1 }])
  await run.run()
  const uncertain = app.locator('[data-test="uncertain-dialog"]')
  await expect(uncertain).toBeVisible({ timeout: 30_000 })
  await expect(run.state()).toHaveText('Needs your decision')
  await expect(uncertain).toContainText('Resubmitting may charge twice')
  await expect(uncertain).toContainText(/Balance now: [\d,.]+ credits/)
  await new ShellPage(app).screenshot('lists-uncertain')
  await app.locator('[data-test="uncertain-skip"]').click()
  await run.waitDone()
  const posts = (await control.log()).requests.filter(
    (entry) => entry.method === 'POST' && entry.path.endsWith('/async'),
  )
  expect(posts).toHaveLength(1)
  await expect(new ResultsPage(app).rowCount()).toContainText('50 rows')

  // Enriching again does not send the rows given up, which may have been charged, unless asked to.
  await app.locator('[data-test="run-again"]').click()
  await run.estimate()
  await expect(app.locator('[data-test="estimate-given-up"]')).toContainText('50 rows were given up')
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('0')
  await expect(app.locator('[data-test="run"]')).toBeDisabled()
  await new ShellPage(app).screenshot('lists-given-up')
  await app.locator('[data-test="opt-resend-given-up"]').click()
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('50')
  await expect(app.locator('[data-test="run"]')).toBeEnabled()
})

test('out of credits: the run waits on hold and resumes by itself after a top-up', async ({ app }) => {
  const control = controlClient(await new ProspectingPage(app).sandboxUrl())
  await importSample(app)
  const run = new RunPanel(app)
  await run.estimate()
  await control.setCredits('demo', 3)
  await run.run()
  await expect(app.locator('[data-test="on-hold-banner"]')).toBeVisible({ timeout: 30_000 })
  await expect(run.state()).toHaveText('On hold: out of credits')
  await new ShellPage(app).screenshot('lists-on-hold')
  await control.topUp('demo', 1000)
  await run.waitDone()
  await expect(app.locator('[data-test="on-hold-banner"]')).toBeHidden()
  await expect(run.counts()).toContainText('50 / 50')
})

test('a run stopped at its credit cap goes on when the cap is raised', async ({ app }) => {
  await importSample(app)
  const run = new RunPanel(app)
  await run.estimate()
  await app.locator('[data-test="cap"] input').fill('10')
  await run.run()
  await expect(run.state()).toHaveText('Stopped at the credit cap', { timeout: 30_000 })
  // The run is named as the list's runs are counted, its id on hover.
  await expect(app.locator('[data-test="job-id"]')).toHaveText('Run 1')
  await expect(run.counts()).toContainText('0 / 50')
  await new ShellPage(app).screenshot('lists-capped')
  // Where lists are listed, the list says what its run says, not "Enriching".
  const shell = new ShellPage(app)
  await shell.open('Lists')
  await expect(app.locator('[data-test="list-row"]')).toContainText('Stopped at the credit cap')
  await expect(app.locator('[data-test="list-row"]')).not.toContainText('Enriching')
  await shell.open('Start')
  await expect(app.locator('[data-test="home-list-row"]')).toContainText('Stopped at the credit cap')
  await shell.screenshot('start-capped')
  await app.locator('[data-test="home-list-row"] a').first().click()
  await app.locator('[data-test="new-cap"] input').fill('1000')
  await app.locator('[data-test="raise-cap"]').click()
  await run.waitDone()
  await expect(run.counts()).toContainText('50 / 50')
})
