import { controlClient } from '../../electron/sandbox/control/client'
import { expect, test } from './fixtures'
import { ImportDialog, sampleFile } from './pages/import'
import { RunPanel, exportAllCsv } from './pages/lists'
import { ProspectingPage } from './pages/prospecting'
import { ShellPage } from './pages/shell'

test('Start leads: a drop zone, the run on hold with its progress, recent lists, saved searches, a low balance', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const prospecting = new ProspectingPage(app)
  const home = app.locator('[data-test="home-lists"]')
  await expect(app.locator('[data-test="home-drop-zone"]')).toContainText('Drop a CSV or Excel file to start')
  await expect(home).toContainText('No lists yet')
  await expect(app.locator('[data-test="home-saved"]')).toContainText('Searches you save in')
  await expect(app.locator('[data-test="home-work"]')).toHaveCount(0)
  await expect(app.locator('[data-test="home-credits"]')).toContainText(/\d/)
  await shell.screenshot('start-empty')

  // A file dropped on Start opens the import; the list it makes is one click away from Start.
  const control = controlClient(await prospecting.sandboxUrl())
  await shell.open('Start')
  const dialog = new ImportDialog(app)
  await dialog.dropFile('contacts-sample.csv', sampleFile('contacts-sample.csv'))
  await dialog.importAll()
  await expect(app.locator('[data-test="list-name"]')).toContainText('contacts-sample')

  // Three credits left: the run goes on hold, and Start says so with how far it came.
  const run = new RunPanel(app)
  await control.setCredits('demo', 3)
  await app.locator('[data-test="account-refresh"]').click()
  await expect(shell.credits()).toContainText('3 credits')
  await run.estimate()
  // The price is shown against the balance: more than is left, and what happens then.
  await expect(app.locator('[data-test="estimate-short-balance"]')).toContainText(
    'You have 3 credits left, and this run may cost more',
  )
  await shell.screenshot('start-short-balance')
  await run.run()
  await expect(run.state()).toHaveText('On hold: out of credits', { timeout: 30_000 })

  // A saved search, to find on Start.
  await shell.open('Lead search')
  await prospecting.pick('contact_seniority', 'include', ['VP'])
  await prospecting.button('save-name').locator('input').fill('VPs everywhere')
  await prospecting.button('save-search').click()
  await expect(app.getByText('Saved the search "VPs everywhere".')).toBeVisible()

  await shell.open('Start')
  const work = app.locator('[data-test="home-work-row"]')
  await expect(work).toHaveCount(1)
  await expect(work).toContainText('contacts-sample')
  await expect(work).toContainText('On hold: out of credits')
  await expect(work).toContainText(/\d+ of 50 rows/)
  await expect(app.locator('[data-test="home-list-row"]')).toContainText('contacts-sample')
  await expect(app.locator('[data-test="home-list-row"]')).toContainText('50 rows')
  // The list says what its run says, not "Enriching".
  await expect(app.locator('[data-test="home-list-row"]')).toContainText('On hold: out of credits')
  await expect(app.locator('[data-test="home-saved-row"]')).toContainText('VPs everywhere')
  await expect(app.locator('[data-test="home-low"]')).toContainText('below your warning at 100 credits')
  await shell.screenshot('start-leads')

  // One click from Start: the saved search opens with its filters, the list with its run.
  await app.locator('[data-test="home-saved-row"] a').click()
  await expect(shell.title()).toHaveText('Lead search')
  await expect(prospecting.field('contact_seniority').locator('[data-test="include"]')).toContainText('VP')
  // Run without email enrichment: no email was looked up, so no lead reads "Not found".
  await control.topUp('demo', 1000)
  await prospecting.button('run-search').click()
  await expect(prospecting.runState()).toHaveText('Done', { timeout: 30_000 })
  const leads = app.locator('[data-test="lead-grid"]')
  await expect(leads.locator('tbody tr').first()).toContainText('Not requested')
  await expect(leads).not.toContainText('Not found')
  await expect(leads.locator('tbody tr').first()).toContainText('VP')
  await expect(app.locator('[data-test="facet-emailStatus"]')).toHaveCount(0)
  // Saved as a list and exported: every lead is there, and none carries a status nobody looked up.
  await prospecting.button('save-as-list').click()
  await prospecting.button('list-name').locator('input').fill('VPs, no email')
  await app.getByRole('button', { name: 'Save list' }).click()
  const savedToast = await app.getByText(/^Saved \d+ leads as the list/).innerText()
  const savedCount = Number(/Saved (\d+) leads/.exec(savedToast)![1])
  expect(savedCount).toBeGreaterThan(0)
  await expect(app.locator('[data-test="list-name"]')).toContainText('VPs, no email')
  const exported = await exportAllCsv(app)
  expect(exported).toHaveLength(savedCount)
  for (const row of exported) {
    expect(row['Seniority']).toBe('vp')
    for (const [header, value] of Object.entries(row))
      if (header.startsWith('Email status')) expect(value).toBe('')
  }
  // The top-up let the list's run go on: it leaves "Running and on hold" once done.
  await shell.open('Start')
  await expect(app.locator('[data-test="home-work"]')).toHaveCount(0, { timeout: 30_000 })
  const enriched = app.locator('[data-test="home-list-row"]', { hasText: 'contacts-sample' })
  await expect(enriched).toContainText('Enriched')
  // Both lists are one click away; which comes first depends on whether the run ended before the save.
  await expect(app.locator('[data-test="home-list-row"]', { hasText: 'VPs, no email' })).toHaveCount(1)
  await expect(app.locator('[data-test="home-list-row"]')).toHaveCount(2)
  await enriched.locator('a').click()
  await expect(app.locator('[data-test="list-name"]')).toContainText('contacts-sample')
  await expect(run.counts()).toContainText('50 / 50')
})
