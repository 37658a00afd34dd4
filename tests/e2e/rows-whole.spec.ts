import type { Page } from '@playwright/test'
import { controlClient } from '../../electron/sandbox/control/client'
import { expect, test } from './fixtures'
import { ImportDialog, sampleFile } from './pages/import'
import { ResultsPage } from './pages/library'
import { ProspectingPage } from './pages/prospecting'
import { blockShapes } from './pages/database'
import { exportAllCsv, RunPanel } from './pages/lists'
import { ShellPage } from './pages/shell'

/** The sample's 50 people, one line each, without the header. */
const people = new TextDecoder().decode(sampleFile('contacts-sample.csv')).trim().split(/\r?\n/)
const [header, ...lines] = people

function file(rows: string[]): Uint8Array {
  return new TextEncoder().encode([header, ...rows].join('\n') + '\n')
}

/** The same person written the way people do: other case, spaces, a website instead of a domain. */
function restated(line: string): string {
  const [first, last, company, domain, ...rest] = line.split(',')
  return [` ${first!.toUpperCase()}`, last!.toLowerCase(), company, `https://www.${domain}/`, ...rest].join(
    ',',
  )
}

async function importList(app: Page, name: string, bytes: Uint8Array): Promise<void> {
  const dialog = new ImportDialog(app)
  await new ShellPage(app).open('Lists')
  await dialog.dropFile(name, bytes)
  await dialog.importAll()
  await expect(app.locator('[data-test="list-name"]')).toContainText(name.replace('.csv', ''))
}

const cell = (text: string) => Number(text.replace(/\D/g, ''))

test('every row comes back whole: twins, library rows and phones added later, from the exports', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const control = controlClient(await new ProspectingPage(app).sandboxUrl())
  const shell = new ShellPage(app)
  const run = new RunPanel(app)

  // List A: 30 people, 10 of them written a second time further down.
  const listA = [...lines.slice(0, 30), ...lines.slice(0, 10).map(restated)]
  await importList(app, 'trade-fair.csv', file(listA))
  await run.estimate()
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('40')
  await expect(run.estimateTable()).toContainText('(30 people)')
  await expect(app.locator('[data-test="estimate-twins-sent"]')).toHaveText(
    '10 of them are the same person as another row: asked once, charged once',
  )
  await expect(run.estimateCost()).toContainText('0 to 30 credits')
  await expect(app.locator('[data-test="estimate-short-balance"]')).toHaveCount(0)
  await shell.screenshot('rows-whole-twins-estimate')
  await control.clearLog()
  await run.run()
  await run.waitDone()
  const firstPosts = (await control.log()).requests.filter((entry) => entry.method === 'POST')
  const sentPeople = firstPosts.flatMap((entry) => (entry.body as { data: unknown[] }).data)
  expect(sentPeople).toHaveLength(30)

  // The run's answers are stored after the job shows it is done: every row answered, twins too.
  let a: Record<string, string>[] = []
  await expect(async () => {
    a = await exportAllCsv(app)
    expect(a.filter((row) => row['Status'] === 'found' || row['Status'] === 'not_found')).toHaveLength(40)
  }).toPass({ timeout: 60_000 })
  // The list's one block, its rows now with results, is stored coded; the export reads it whole.
  expect(await blockShapes(app)).toEqual(['coded'])
  expect(a).toHaveLength(40)
  for (let twin = 30; twin < 40; twin++) {
    const original = a[twin - 30]!
    expect(a[twin]!['Email']).toBe(original['Email'])
    expect(a[twin]!['Email status']).toBe(original['Email status'])
    expect(a[twin]!['Status']).toBe(original['Status'])
    expect(a[twin]!['Result from']).toBe(`same person as row ${twin - 29}, not charged`)
  }
  expect(a.filter((row) => row['Email'] !== '').length).toBeGreaterThan(20)
  expect(a.slice(0, 30).every((row) => row['Result from'] === 'the service')).toBe(true)
  // Emails only were asked for: the summary has no bar of phones found, the filters no "Phone found".
  const emailSummary = app.locator('[data-test="list-summary"]')
  // The headline leads with the emails bought, not with rows "found" that a reader takes for emails.
  const emailsFound = a.filter((row) => row['Email'] !== '').length
  const foundRows = a.filter((row) => row['Status'] === 'found').length
  await expect(app.locator('[data-test="summary-headline"]')).toHaveText(
    `${emailsFound} emails found · ${foundRows - emailsFound} found without an email · ${a.filter((row) => row['Status'] === 'not_found').length} not found`,
  )
  await expect(emailSummary).not.toContainText('Phone found')
  await expect(emailSummary).not.toContainText('phones found')
  await expect(app.locator('[data-test="result-filters"]')).toBeVisible()
  await expect(app.locator('[data-test="filter-phone-found"]')).toHaveCount(0)
  // A found row whose email was not: said whole, not a bare "Not found" beside the rows found.
  await expect(emailSummary).not.toContainText('Not found')
  await shell.screenshot('rows-whole-twins')

  // List B: 10 people list A found, and 10 new ones: only the new ones are sent.
  // The twin's drawer says where its data came from.
  const results = new ResultsPage(app)
  await results.grid().hover()
  await app.mouse.wheel(0, 3000)
  await results.open(30)
  await expect(app.locator('[data-test="row-origins"]')).toContainText('same person as row 1, not charged')
  await app.keyboard.press('Escape')

  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  await dialog.dropFile('webinar.csv', file([...lines.slice(20, 30), ...lines.slice(30, 40)]))
  await dialog.next()
  await dialog.readAll()
  // Checked against the library as the rows are read (the import worker asks the library worker).
  await expect(app.locator('[data-test="issue-known"] [data-test="issue-count"]')).toHaveText('10')
  await dialog.finish()
  await expect(app.locator('[data-test="list-name"]')).toContainText('webinar')
  const balanceBefore = await control.balance('demo')
  await run.estimate()
  await expect(app.locator('[data-test="estimate-library"]')).toHaveText('10')
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('10')
  await expect(run.estimateCost()).toContainText('0 to 10 credits')
  await shell.screenshot('rows-whole-library-estimate')
  await control.clearLog()
  await run.run()
  await run.waitDone()
  const secondPosts = (await control.log()).requests.filter((entry) => entry.method === 'POST')
  expect(secondPosts.flatMap((entry) => (entry.body as { data: unknown[] }).data)).toHaveLength(10)
  // The summary's spend is what the account was charged for this list.
  const charged = balanceBefore - (await control.balance('demo'))
  expect(charged).toBeGreaterThan(0)
  await expect(app.locator('[data-test="credits-spent"]')).toHaveText(String(charged))
  const b = await exportAllCsv(app)
  const today = new Date().toISOString().slice(0, 10)
  for (let at = 0; at < 10; at++) {
    expect(b[at]!['Email']).toBe(a[20 + at]!['Email'])
    expect(b[at]!['Email status']).toBe(a[20 + at]!['Email status'])
    // The person reads as the service read them on the row that was charged, found or not.
    expect(b[at]!['Status']).toBe(a[20 + at]!['Status'])
    expect(b[at]!['Result from']).toBe(`from your library, found ${today}, not charged`)
  }
  await new ResultsPage(app).open(0)
  await expect(app.locator('[data-test="row-origins"]')).toContainText('from your library')
  await expect(app.locator('[data-test="row-drawer"]').getByText('Open their page')).toBeVisible()
  await shell.screenshot('rows-whole-library-row')
  await app.keyboard.press('Escape')

  // Back to list A: phones, priced as phones only, sent for the 30 people and nobody twice.
  await shell.open('Lists')
  await app.locator('[data-test="list-row"]', { hasText: 'trade-fair' }).click()
  await app.locator('[data-test="run-again"]').click()
  await app.locator('[data-test="opt-email"]').click()
  await app.locator('[data-test="opt-phone"]').click()
  await run.estimate()
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('40')
  await expect(run.estimateTable()).toContainText('(30 people)')
  await expect(run.estimateCost()).toContainText('0 to 300 credits')
  await expect(run.estimateCost()).toContainText('30 for phone')
  await shell.screenshot('rows-whole-phones-estimate')
  await control.clearLog()
  await run.run()
  await run.waitDone()
  const phonePosts = (await control.log()).requests.filter((entry) => entry.method === 'POST')
  const bodies = phonePosts.map(
    (entry) =>
      entry.body as { data: unknown[]; enrich_email_address?: boolean; enrich_phone_number?: boolean },
  )
  expect(bodies.flatMap((body) => body.data)).toHaveLength(30)
  expect(
    bodies.every((body) => body.enrich_phone_number === true && body.enrich_email_address === false),
  ).toBe(true)
  const charges = (await control.log()).charges
  expect(charges.every((charge) => !/email/i.test(charge.reason))).toBe(true)

  // The answers are stored after the job shows it is done: read until they all are.
  let phones: Record<string, string>[] = []
  await expect(async () => {
    phones = await exportAllCsv(app)
    for (let at = 0; at < 40; at++) {
      // Emails bought earlier stay, statuses too; phones arrive beside them.
      expect(phones[at]!['Email']).toBe(a[at]!['Email'])
      expect(phones[at]!['Email status']).toBe(a[at]!['Email status'])
    }
    for (let twin = 30; twin < 40; twin++) expect(phones[twin]!['Phone']).toBe(phones[twin - 30]!['Phone'])
    expect(phones.filter((row) => row['Phone'] !== '').length).toBeGreaterThan(0)
  }).toPass({ timeout: 60_000 })

  // The counts on screen add up: the summary's rows are the export's rows.
  const summary = app.locator('[data-test="list-summary"]')
  await expect(summary).toBeVisible()
  await expect(summary).toContainText('Phone found')
  await expect(app.locator('[data-test="filter-phone-found"]')).toBeVisible()
  const found = phones.filter((row) => row['Status'] === 'found').length
  const notFound = phones.filter((row) => row['Status'] === 'not_found').length
  expect(found + notFound).toBe(40)
  const withPhone = phones.filter((row) => row['Phone'] !== '').length
  await expect(app.locator('[data-test="summary-emails"]')).toHaveText(`${emailsFound} emails found`)
  await expect(app.locator('[data-test="summary-phones"]')).toHaveText(
    `${withPhone} ${withPhone === 1 ? 'phone' : 'phones'} found`,
  )
  await expect(app.locator('[data-test="summary-withoutPhone"]')).toHaveText(
    `${found - withPhone} found without a phone`,
  )
  await expect(app.locator('[data-test="summary-notFound"]')).toHaveText(`${notFound} not found`)
  expect(cell(await app.locator('[data-test="row-count"]').innerText())).toBe(40)
  // Each bar is as long as its share of the list's rows, which its label gives.
  const bars = summary.locator('.track')
  const counts = summary.locator('.count')
  expect(await bars.count()).toBeGreaterThan(1)
  for (let at = 0; at < (await bars.count()); at++) {
    const [count] = (await counts.nth(at).innerText()).split(' · ')
    const track = (await bars.nth(at).boundingBox())!
    const bar = (await bars.nth(at).locator('.bar').boundingBox())!
    expect(Math.abs(bar.width - (track.width * cell(count!)) / 40)).toBeLessThanOrEqual(2)
  }
  await shell.screenshot('rows-whole-phones')
})
