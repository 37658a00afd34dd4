import { expect, test } from './fixtures'
import { ImportDialog } from './pages/import'
import { ListSummary, RunPanel, exportAllCsv } from './pages/lists'
import { SettingsPage } from './pages/settings'
import { ShellPage } from './pages/shell'
import { StartPage } from './pages/start'

const count = (text: string) => Number(text.replace(/\D/g, ''))

test('"Try a sample list": repeated people, people the library knows, and a headline that says what was bought', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const shell = new ShellPage(app)
  const start = new StartPage(app)
  const dialog = new ImportDialog(app)
  const run = new RunPanel(app)
  const summary = new ListSummary(app)

  // No key, on the sandbox: Start offers the sample beside the file picker.
  await expect(start.trySample()).toBeVisible()
  await shell.screenshot('sample-start')
  await start.openSample()
  await expect(dialog.dialog()).toContainText('sandbox-sample.csv')
  await dialog.next()
  await dialog.readAll()
  await expect(dialog.review()).toBeVisible()
  // The check finds what the sample holds on purpose: people named twice, people the search made known.
  expect(count(await dialog.issueCount('duplicate').innerText())).toBeGreaterThanOrEqual(20)
  expect(count(await dialog.issueCount('known').innerText())).toBeGreaterThanOrEqual(5)
  expect(count(await dialog.issueCount('personal_domain').innerText())).toBeGreaterThan(0)
  await dialog.screenshot('sample-review')
  await dialog.finish()
  await expect(app.locator('[data-test="list-name"]')).toContainText('sandbox-sample')

  await run.estimate()
  const fromLibrary = count(await app.locator('[data-test="estimate-library"]').innerText())
  const sent = count(await app.locator('[data-test="estimate-rows-sent"]').innerText())
  expect(fromLibrary).toBeGreaterThanOrEqual(5)
  await expect(app.locator('[data-test="estimate-twins-sent"]')).toBeVisible()
  await run.run()
  await run.waitDone()

  // The export holds what the rows hold once the run's results are all stored: every row sent or
  // taken from the library answered, found or not.
  let rows: Record<string, string>[] = []
  await expect(async () => {
    rows = await exportAllCsv(app)
    const answered = rows.filter((row) => row['Status'] === 'found' || row['Status'] === 'not_found')
    expect(answered).toHaveLength(sent + fromLibrary)
  }).toPass({ timeout: 60_000 })
  const found = rows.filter((row) => row['Status'] === 'found')
  const emails = found.filter((row) => row['Email'] !== '').length
  const notFound = rows.filter((row) => row['Status'] === 'not_found').length
  expect(emails).toBeGreaterThan(0)
  expect(found.length - emails).toBeGreaterThan(0)
  expect(rows.some((row) => /^from your library/.test(row['Result from'] ?? ''))).toBe(true)
  expect(rows.some((row) => /^same person as row \d+, not charged$/.test(row['Result from'] ?? ''))).toBe(
    true,
  )

  // The list's headline is its rows', counted: emails first, never a bare "found".
  await expect(summary.headline()).toHaveText(
    `${emails} emails found · ${found.length - emails} found without an email · ${notFound} not found`,
  )
  // The run's card counts what this run bought: the rows the library answered are not its own.
  const bought = rows.filter((row) => !/^from your library/.test(row['Result from'] ?? ''))
  const runFound = bought.filter((row) => row['Status'] === 'found')
  const runEmails = runFound.filter((row) => row['Email'] !== '').length
  await expect(run.found('emails')).toHaveText(`${runEmails} emails found`)
  await expect(run.found('withoutEmail')).toHaveText(`${runFound.length - runEmails} found without an email`)
  await expect(run.found('notFound')).toHaveText(
    `${bought.filter((row) => row['Status'] === 'not_found').length} not found`,
  )
  await expect(run.counts()).not.toContainText(/\d found ·/)
  // The rows no run sent are said too, and each group of the "found" filter is the headline's count.
  const notSent = rows.filter((row) => ['invalid', 'known'].includes(row['Status'] ?? '')).length
  const skipped = rows.filter((row) => row['Status'] === 'skipped').length
  expect(notSent + skipped + found.length + notFound).toBe(rows.length)
  await expect(app.locator('[data-test="summary-not-sent"]')).toHaveText(
    new RegExp(`^${notSent}\\s*rows? not sent$`),
  )
  await expect(app.locator('[data-test="summary-skipped"]')).toHaveText(
    new RegExp(`^${skipped}\\s*rows? skipped$`),
  )
  await shell.screenshot('sample-enriched')
  const rowCount = app.locator('[data-test="row-count"]')
  for (const [option, expected] of [
    ['Not found only', notFound],
    ['Not sent only', notSent],
    ['Skipped only', skipped],
    ['Found only', found.length],
  ] as const) {
    await app.locator('[data-test="filter-found"]').click()
    await app.getByText(option, { exact: true }).click()
    await expect(rowCount).toHaveText(`${expected} of ${rows.length} rows`)
  }
})

test('no sample is offered once a key is set', async ({ app }) => {
  const shell = new ShellPage(app)
  const start = new StartPage(app)
  await expect(start.trySample()).toBeVisible()
  await shell.open('Settings')
  const settings = new SettingsPage(app)
  await settings.saveKey('lk_live_0123456789abcdef', 'persistent')
  await expect(settings.masked()).toBeVisible()
  await shell.open('Start')
  await expect(app.locator('[data-test="home-drop-zone"]')).toBeVisible()
  await expect(start.trySample()).toHaveCount(0)
})
