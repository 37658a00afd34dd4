import { expect, test } from './fixtures'
import { ImportDialog } from './pages/import'
import { exportAllCsv, RunPanel } from './pages/lists'
import { ShellPage } from './pages/shell'

test('hostile rows are named, not dropped: extra cells, a bare carriage return, a value that is not a domain', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const run = new RunPanel(app)
  await shell.open('Lists')
  const text =
    'First Name,Last Name,Company Domain\r\n' +
    'Olivia,Bennett,northwindanalytics.com,extra one,extra two\r\n' +
    '"Liam","Carter\rJr",bluepeak.io\r\n' +
    'Lucas,=Moreau,not a domain\r\n'
  await dialog.dropFile('hostile.csv', new TextEncoder().encode(text))
  await dialog.next()
  await dialog.readAll()
  await expect(app.locator('[data-test="import-summary"]')).toContainText('3 rows read')
  await expect(app.locator('[data-test="import-ragged"]')).toContainText(
    'the extra cells were kept, in Column 4 to Column 5',
  )
  await expect(dialog.issueCount('malformed_domain')).toHaveText('1')
  await dialog.screenshot('hostile-review')
  await dialog.finish()

  await run.estimate()
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('2')
  await run.run()
  await run.waitDone()
  const rows = await exportAllCsv(app)
  expect(rows[0]).toMatchObject({ 'Column 4': 'extra one', 'Column 5': 'extra two' })
  // A line break inside a quoted cell comes back as it was written, a bare carriage return too.
  expect(rows[1]!['Last Name']).toBe('Carter\rJr')
  expect(rows[2]!['Last Name']).toBe("'=Moreau")
  // For another system, values go as they are: a CRM would keep the apostrophe.
  const asIs = await exportAllCsv(app, 'import')
  expect(asIs[2]!['Last Name']).toBe('=Moreau')
  expect(asIs.map((row) => row['First Name'])).toEqual(rows.map((row) => row['First Name']))
  expect(rows[2]).toMatchObject({ Status: 'invalid' })
  expect(rows[2]!['Note']).toMatch(/company domain that can exist/)
  await shell.screenshot('hostile-list')
})

test('a 5,000-column file is previewed by its first columns and imported whole', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  await app.evaluate(() => {
    const width = 5000
    const header = ['First Name', 'Last Name', 'Company Domain']
    for (let i = 4; i <= width; i++) header.push(`Answer ${i}`)
    const lines = [header.join(',')]
    for (let row = 0; row < 30; row++) {
      const cells = [`First${row}`, `Last${row}`, `company${row}.com`]
      for (let i = 4; i <= width; i++) cells.push(String((row * i) % 7))
      lines.push(cells.join(','))
    }
    const transfer = new DataTransfer()
    transfer.items.add(new File([lines.join('\n')], 'survey.csv', { type: 'text/csv' }))
    document.body.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }))
    document.body.dispatchEvent(
      new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }),
    )
  })
  await expect(dialog.preview()).toBeVisible()
  await expect(
    app.getByText(/5,000 columns; the first 20 rows are shown with their first 50 columns/),
  ).toBeVisible()
  await expect(dialog.preview().locator('th')).toHaveCount(51)
  await dialog.screenshot('wide-preview')
  // Scrolled sideways to its last column, the preview keeps each row's number at its left edge.
  const body = dialog.preview().locator('.n-data-table-base-table-body .n-scrollbar-container')
  await body.evaluate((element) => (element.scrollLeft = element.scrollWidth))
  const edge = (await body.boundingBox())!.x
  const first = dialog.preview().locator('tbody tr').first().locator('td')
  await expect.poll(async () => (await first.nth(1).boundingBox())!.x).toBeLessThan(edge)
  await expect(first.first()).toHaveText('1')
  expect((await first.first().boundingBox())!.x).toBe(edge)
  await dialog.screenshot('wide-preview-scrolled')
  await dialog.next()
  await expect(app.locator('[data-test="mapping-more-columns"]')).toHaveText('and 4,957 more')
  await dialog.screenshot('wide-mapping')
  await dialog.readAll()
  await expect(app.locator('[data-test="import-summary"]')).toContainText('30 rows read')
  await dialog.finish()
  await expect(app.getByText(/5,000 columns/).first()).toBeVisible()
  await shell.screenshot('wide-list')
})

test('a line of megabytes is named as the file is dropped, not after reading it all', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  await shell.open('Lists')
  await app.evaluate(() => {
    const text = `First name,Last name,Company domain,Notes\nAda,Lovelace,acme.com,${'x'.repeat(5_000_000)}\n`
    const transfer = new DataTransfer()
    transfer.items.add(new File([text], 'huge-field.csv', { type: 'text/csv' }))
    document.body.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }))
    document.body.dispatchEvent(
      new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }),
    )
  })
  await expect(dialog.problem()).toContainText('Line 2 is longer than 4 million characters')
  await expect(dialog.dialog()).not.toContainText('Please Select')
  await expect(dialog.dialog()).toContainText('Detect from the file')
  await dialog.screenshot('huge-field')
})
