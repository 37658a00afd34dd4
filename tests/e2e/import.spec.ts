import { expect, test } from './fixtures'
import { readFileSync } from 'node:fs'
import { countRecords } from './pages/database'
import { ImportDialog, generatedCsv, sampleFile } from './pages/import'
import { RunPanel } from './pages/lists'
import { ShellPage } from './pages/shell'
import { noteWorkerCalls, workerCalls } from './pages/worker-calls'

test('a messy CSV dropped on the window is previewed, mapped, checked and stored as a list', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await noteWorkerCalls(app)
  await app.reload()
  await shell.open('Lists')

  await dialog.dragOver('contacts-messy.csv', sampleFile('contacts-messy.csv'))
  await expect(dialog.overlay()).toBeVisible()
  await dialog.screenshot('1-drag-overlay')
  await dialog.drop()
  await expect(dialog.overlay()).toBeHidden()

  // Preview: Windows-1252 and semicolons were detected, accents read right.
  await expect(dialog.dialog()).toBeVisible()
  await expect(dialog.preview()).toContainText('Société')
  await expect(dialog.preview()).toContainText('René Müller')
  await expect(app.locator('[data-test="import-encoding"]')).toContainText('Windows-1252')
  await expect(app.locator('[data-test="import-delimiter"]')).toContainText('Semicolon')
  await dialog.screenshot('2-preview')
  // While the user maps the columns, the library worker reads the people's index the rows' check
  // will ask about every row.
  await expect.poll(() => workerCalls(app)).toContain('readIndexAhead')

  // Forcing UTF-8 garbles the accents and says so; going back fixes them.
  await dialog.choose('import-encoding', 'UTF-8')
  await expect(dialog.undecodable()).toBeVisible()
  await expect(dialog.preview()).not.toContainText('René Müller')
  await dialog.screenshot('3-wrong-encoding')
  await dialog.choose('import-encoding', 'Windows-1252')
  await expect(dialog.undecodable()).toBeHidden()
  await expect(dialog.preview()).toContainText('René Müller')

  // Mapping: the full name and website are found; the email column needs a hand.
  await dialog.next()
  await expect(app.locator('[data-test="map-full_name"]')).toContainText('Nom complet')
  await expect(app.locator('[data-test="map-website"]')).toContainText('Site web')
  await expect(app.locator('[data-test="map-email"]')).toContainText('not in this file')
  await dialog.choose('map-email', 'Adresse pro')
  await expect(app.locator('[data-test="map-email"]')).toContainText('Adresse pro')
  await dialog.screenshot('4-mapping')

  // Reading and checking in the worker, then the counts of each issue.
  await dialog.readAll()
  await expect(dialog.review()).toBeVisible()
  await expect(app.locator('[data-test="import-summary"]')).toContainText('24 rows read')
  await expect(dialog.issueCount('missing_name')).toHaveText('1')
  await expect(dialog.issueCount('malformed_domain')).toHaveText('2')
  await expect(dialog.issueCount('personal_domain')).toHaveText('3')
  await expect(dialog.issueCount('duplicate')).toHaveText('2')
  await expect(app.locator('[data-test="import-ragged"]')).toContainText('padded')
  // Duplicates are not a choice: they come back with their twin's result, charged once.
  await expect(app.locator('[data-test="skip-duplicate"]')).toHaveCount(0)
  await expect(app.locator('[data-test="import-to-send"]')).toContainText('18 rows will be enriched')
  await app.locator('[data-test="skip-personal_domain"]').click()
  await expect(app.locator('[data-test="import-to-send"]')).toContainText('21 rows will be enriched')
  await expect(app.locator('[data-test="skip-personal_domain"]')).toHaveAttribute('aria-checked', 'false')
  await dialog.screenshot('5-check')

  await dialog.finish()
  await expect(app).toHaveURL(/#\/lists\/[0-9a-f-]{36}$/)
  await expect(app.getByText(/\b24 rows\b/).first()).toBeVisible()
  await shell.screenshot('import-6-list-page')
})

test('on four cores or more an import runs on two workers, and stores what one worker stores', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const run = new RunPanel(app)
  const importWorkers: string[] = []
  app.on('worker', (worker) => {
    if (worker.url().includes('list-import')) importWorkers.push(worker.url())
  })
  // The page asks how many cores the computer has as it spawns an import's workers.
  const cores = (count: number) =>
    app.evaluate(
      (n) => Object.defineProperty(navigator, 'hardwareConcurrency', { value: n, configurable: true }),
      count,
    )
  const importOnce = async () => {
    await shell.open('Lists')
    await dialog.dropFile('contacts-messy.csv', sampleFile('contacts-messy.csv'))
    await dialog.next()
    await dialog.choose('map-email', 'Adresse pro')
    await dialog.readAll()
    await expect(dialog.review()).toBeVisible()
    const issues: Record<string, string> = {}
    for (const kind of ['missing_name', 'malformed_domain', 'personal_domain', 'duplicate'])
      issues[kind] = await dialog.issueCount(kind).innerText()
    const toSend = await app.locator('[data-test="import-to-send"]').innerText()
    await dialog.finish()
    // What the run would send is worked out from each stored row's issues and skips.
    await run.estimate()
    return { issues, toSend, plan: await run.estimateTable().innerText() }
  }

  await cores(2)
  const one = await importOnce()
  expect(importWorkers).toHaveLength(1)
  await cores(8)
  const two = await importOnce()
  expect(importWorkers).toHaveLength(3)
  expect(two).toEqual(one)
  expect(one.issues).toEqual({
    missing_name: '1',
    malformed_domain: '2',
    personal_domain: '3',
    duplicate: '2',
  })
  expect(one.toSend).toContain('18 rows will be enriched')
  // Personal addresses are skipped by default; missing names and malformed domains are not sent.
  expect(one.plan).toMatch(/Skipped by you\s+3/)
  expect(one.plan).toMatch(/Incomplete, not sent\s+3/)
})

test('the same headers get their mapping back the next time', async ({ app }) => {
  await app.emulateMedia({ colorScheme: 'dark' })
  const dialog = new ImportDialog(app)
  await dialog.dropFile('contacts-messy.csv', sampleFile('contacts-messy.csv'))
  await dialog.next()
  await dialog.choose('map-email', 'Adresse pro')
  await dialog.readAll()
  await dialog.finish()

  // Dropped on the first list's page: the file may be added to it, or be a list of its own.
  await dialog.dropFile('contacts-messy-again.csv', sampleFile('contacts-messy.csv'))
  await app.locator('[data-test="drop-offer-new"]').click()
  await dialog.next()
  await expect(app.locator('[data-test="mapping-remembered"]')).toBeVisible()
  await expect(app.locator('[data-test="map-email"]')).toContainText('Adresse pro')
  await dialog.screenshot('9-remembered-dark')
})

test('a spreadsheet dropped by mistake gets a clear message', async ({ app }) => {
  const dialog = new ImportDialog(app)
  await dialog.dropFile('contacts.xlsx', new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x06, 0x00]))
  await expect(dialog.problem()).toContainText('Excel')
  await expect(app.locator('[data-test="import-next"]')).toBeDisabled()
  await dialog.screenshot('7-binary')
})

test('a big import shows its progress and can be cancelled, leaving nothing behind', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  await dialog.startGeneratedImport('big.csv', 400_000)
  await dialog.screenshot('8-progress')
  await app.locator('[data-test="import-stop"]').click()
  await expect(app.getByText('Import cancelled; nothing was kept.')).toBeVisible()
  await expect(app.locator('[data-test="import-start"]')).toBeVisible()
  const lists = await countRecords(app, [
    'lists',
    'listBlocks',
    'listFacets',
    'listCompanies',
    'blockRevs',
    'facetCounts',
    'companyCounts',
  ])
  expect(lists).toBe(0)
})

test('an import interrupted by closing the window goes on where it stopped with the same file, or is discarded', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const rows = 200_000
  await shell.open('Lists')
  await dialog.startGeneratedImport('big.csv', rows)
  // Some blocks are stored, not all: the window closes mid-import.
  await expect.poll(() => dialog.storedBlocks(), { timeout: 60_000 }).toBeGreaterThan(0)
  await app.reload()
  const notice = app.locator('[data-test="import-interrupted"]')
  await expect(notice).toContainText('The import of “big” was interrupted')
  await expect(notice.locator('[data-test="interrupted-rows"]')).toContainText(/[1-9][\d,]* rows were stored/)
  const before = Number(
    (await notice.locator('[data-test="interrupted-rows"]').innerText()).replace(/\D/g, ''),
  )
  expect(before).toBeGreaterThan(0)
  expect(before).toBeLessThan(rows)
  await expect(app.locator('[data-test="list-row"]')).toContainText('Import interrupted')
  await shell.screenshot('lists-import-interrupted')
  await shell.open('Start')
  await expect(app.locator('[data-test="home-list-row"]')).toContainText('Import interrupted')
  await shell.open('Lists')

  // A different file is named as such, and what was read stays.
  let chooser = app.waitForEvent('filechooser')
  await notice.locator('[data-test="import-resume"]').click()
  await (await chooser).setFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: generatedCsv(10) })
  await expect(dialog.problem()).toContainText('This is not the file whose import stopped')
  await dialog.screenshot('resume-other-file')
  await app.locator('[data-test="import-close"]').click()
  await expect(notice).toContainText('The import of “big” was interrupted')

  // The same file, stopped again mid-read: what was stored stays, and says how much.
  chooser = app.waitForEvent('filechooser')
  await notice.locator('[data-test="import-resume"]').click()
  await (await chooser).setFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: generatedCsv(rows) })
  await expect(app.locator('[data-test="import-resumed"]')).toContainText(
    `the ${before.toLocaleString('en-US')} rows stored`,
  )
  await dialog.screenshot('resume-progress')
  await app.locator('[data-test="import-stop"]').click()
  await expect(dialog.problem()).toContainText('The import stopped')
  await expect(dialog.problem()).toContainText(/The [\d,]+ rows stored so far are kept/)
  await dialog.screenshot('resume-stopped')
  await app.locator('[data-test="import-close"]').click()
  const after = Number(
    (await notice.locator('[data-test="interrupted-rows"]').innerText()).replace(/\D/g, ''),
  )
  expect(after).toBeGreaterThanOrEqual(before)

  // The same file: read on from where it stopped, checked whole, then made a list of every row once.
  chooser = app.waitForEvent('filechooser')
  await notice.locator('[data-test="import-resume"]').click()
  await (await chooser).setFiles({ name: 'big.csv', mimeType: 'text/csv', buffer: generatedCsv(rows) })
  await expect(dialog.review()).toBeVisible({ timeout: 120_000 })
  await expect(app.locator('[data-test="import-summary"]')).toContainText('200,000 rows read')
  await dialog.screenshot('resume-review')
  await dialog.finish()
  await expect(app).toHaveURL(/#\/lists\/[0-9a-f-]{36}$/)
  await expect(app.getByText(/\b200,000 rows\b/).first()).toBeVisible()

  // What the user receives: the list exported holds the file's rows, each once, in order.
  const downloadStarted = app.waitForEvent('download')
  await app.locator('[data-test="export"]').click()
  await app.getByText(/^CSV for a spreadsheet \(formulas neutralised\) — all 200,000 rows$/).click()
  const exported = readFileSync((await (await downloadStarted).path())!, 'utf8').replace(/^\uFEFF/, '')
  const lines = exported.split(/\r?\n/).filter(Boolean)
  const given = generatedCsv(rows).toString().split('\n')
  expect(lines).toHaveLength(given.length)
  const firstFour = (line: string) => line.split(',').slice(0, 4).join(',')
  expect(lines.map(firstFour)).toEqual(given)

  await shell.open('Lists')
  await expect(notice).toHaveCount(0)
  await expect(app.locator('[data-test="list-row"]')).toHaveCount(1)
})

test('an interrupted import can be discarded', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  await dialog.startGeneratedImport('big.csv', 400_000)
  await app.reload()
  const notice = app.locator('[data-test="import-interrupted"]')
  await notice.locator('[data-test="discard-interrupted"]').click()
  await expect(notice).toHaveCount(0)
  await expect(app.locator('[data-test="list-row"]')).toHaveCount(0)
})
