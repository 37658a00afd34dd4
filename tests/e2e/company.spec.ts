import { readFileSync } from 'node:fs'
import AxeBuilder from '@axe-core/playwright'
import Papa from 'papaparse'
import { expect, test } from './fixtures'
import { LibraryPage, ResultsPage, seedDatabase, settled } from './pages/library'
import { CompanyPage, PersonPage } from './pages/company'
import { ShellPage } from './pages/shell'

test.describe.configure({ timeout: 180_000 })

/**
 * The seeded library (tests/e2e/support/seed-entry.ts): 300 people answered on "Trade fair 2026",
 * person i at d{i % 100}.com ("Company {i % 100}"), a phone for every fifth; 100 companies of the
 * company search "Software in France". Company 12 has people 12, 112 and 212.
 */
test('a company and a person, browsed from the library with the network cut', async ({ app, context }) => {
  const shell = new ShellPage(app)
  const library = new LibraryPage(app)
  const company = new CompanyPage(app)
  const person = new PersonPage(app)
  const results = new ResultsPage(app)
  await shell.open('Library')
  const listId = await seedDatabase(app, 'library')
  await app.reload()
  await expect(library.count()).toHaveText('300 found')
  // Every page's code is fetched at the app's first idle moment; then nothing needs the network.
  await app.waitForTimeout(2_000)
  await context.setOffline(true)
  await context.route(/.*/, (route) => route.abort())

  // From the library's grid: a person's name opens their page.
  await library.search().fill('mara.12@')
  await expect(library.count()).toHaveText('1 found')
  await library.grid().locator('.row:not(.pending)[data-row-index="0"] .cell').first().click()
  await expect(person.name()).toHaveText('Mara Person12')
  await expect(app).toHaveURL(/#\/library\/people\/c:12$/)
  await expect(person.answers()).toContainText(/^Email found .+, phone not found .+\.$/)
  await expect(person.rows()).toHaveCount(1)
  await expect(person.rows().first()).toContainText('Trade fair 2026')
  await expect(person.rows().first()).toContainText('Row 13')
  await shell.screenshot('company-person')

  // The row link opens the list on that row.
  await person.rows().first().getByRole('link', { name: 'Row 13' }).click()
  await expect(results.drawer()).toContainText('Row 13')
  await expect(results.drawer()).toContainText('mara.12@d12.com')
  await settled(results.drawer())
  // The row names its company: it leads to the company's page.
  await results.drawer().locator('[data-test="row-company"]').click()
  await expect(company.name()).toHaveText('Company 12')
  await expect(company.tab('people')).toHaveText('People · 3')
  await expect(company.count()).toHaveText('3 people')
  await expect(company.row(0)).toContainText('Mara Person212')
  await expect(company.row(2)).toContainText('Mara Person12')
  await shell.screenshot('company-people')

  // The library's search and facets, within the company.
  await company.search().fill('person11')
  await expect(company.count()).toHaveText('1 found')
  await expect(company.row(0)).toContainText('Mara Person112')
  await company.search().fill('')
  await expect(company.count()).toHaveText('3 people')
  await company.facet('seniority').click()
  await expect(company.options()).toHaveCount(3)
  await company.options().filter({ hasText: 'VP · 1' }).click()
  await app.keyboard.press('Escape')
  await expect(company.count()).toHaveText('1 found')
  await expect(company.row(0)).toContainText('Mara Person212')
  await shell.screenshot('company-people-facet')

  // The lists whose rows name it, each opening on those rows.
  await company.tab('lists').click()
  await expect(company.lists()).toHaveCount(1)
  await expect(company.lists().first()).toContainText('Trade fair 2026')
  await expect(company.lists().first()).toContainText('3')
  await expect(company.lists().first()).toContainText('300')
  await shell.screenshot('company-lists')
  await company.lists().first().getByRole('link', { name: 'Trade fair 2026' }).click()
  await expect(app).toHaveURL(new RegExp(`#/lists/${listId}\\?company=Company\\+12$`))
  await expect(results.rowCount()).toHaveText('3 of 300 rows')

  // Back and forward: Alt+Left and Alt+Right, then the mouse's side buttons.
  await app.locator('body').click({ position: { x: 5, y: 300 } })
  await app.keyboard.press('Alt+ArrowLeft')
  await expect(company.name()).toHaveText('Company 12')
  await app.keyboard.press('Alt+ArrowRight')
  await expect(results.rowCount()).toHaveText('3 of 300 rows')
  const button = (which: 3 | 4) =>
    app.evaluate((button) => {
      for (const type of ['mousedown', 'mouseup'])
        document.body.dispatchEvent(new MouseEvent(type, { button, bubbles: true, cancelable: true }))
    }, which)
  await button(3)
  await expect(company.name()).toHaveText('Company 12')
  await button(4)
  await expect(results.rowCount()).toHaveText('3 of 300 rows')
  await button(3)
  await expect(company.name()).toHaveText('Company 12')

  // The searches that returned it, and its profile with when each part was fetched.
  await company.tab('searches').click()
  await expect(company.searches()).toHaveCount(1)
  await expect(company.searches().first()).toContainText('Software in France')
  await expect(company.searches().first()).toContainText('Company search')
  await company.tab('profile').click()
  await expect(company.profile().locator('[data-test="company-funding"]')).toContainText('$25M')
  await expect(company.profile().locator('[data-test="company-fetched-facts"]')).toContainText(
    'Profile fetched',
  )
  await expect(company.profile().locator('[data-test="company-funding"] h3')).toContainText('fetched')
  await expect(company.profile().locator('[data-test="library-sources"]')).toContainText('Software in France')
  await expect(company.profile().locator('[data-test="library-sources"]')).toContainText('Trade fair 2026')
  await shell.screenshot('company-profile')

  // A person of the company opens from its people, and their company leads back.
  await company.tab('people').click()
  await company.row(1).click()
  await expect(person.name()).toHaveText('Mara Person112')
  await person.company().click()
  await expect(company.name()).toHaveText('Company 12')

  // In a list's grid, a person's name leads to their page; a click on another cell only takes the keyboard.
  await app.evaluate((to) => (location.hash = to), `#/lists/${listId}?company=Company+12`)
  await expect(results.rowCount()).toHaveText('3 of 300 rows')
  await (await results.cell(0, 'Email')).click()
  await expect(results.drawer()).toBeHidden()
  // The columns drawn follow the keyboard's cell sideways: the name's cell is clicked once it shows it.
  const fullName = await results.cell(0, 'Full name')
  await expect(fullName).toHaveText('Mara Person12')
  await fullName.click()
  await expect(person.name()).toHaveText('Mara Person12')

  // From the library's companies: a company opens its page.
  await shell.open('Library')
  await library.tab('Companies · 100').click()
  await library.search().fill('company 42')
  await expect(library.count()).toHaveText('1 found')
  await library.grid().locator('.row:not(.pending)[data-row-index="0"]').click()
  await expect(company.name()).toHaveText('Company 42')
  await expect(company.tab('people')).toHaveText('People · 3')

  // Both pages read well in both themes: no serious accessibility violation.
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: scheme })
    for (const [page, ready] of [
      ['#/library/companies/d12.com', company.row(0)],
      ['#/library/people/c:112', person.rows().first()],
    ] as const) {
      await app.evaluate((to) => (location.hash = to), page)
      await expect(ready).toBeVisible()
      // The theme's colours fade in: contrast is read once they have.
      await app.waitForFunction(
        () => !document.getAnimations().some((motion) => motion instanceof CSSTransition),
      )
      for (const violation of (await new AxeBuilder({ page: app }).analyze()).violations)
        if (violation.impact === 'serious' || violation.impact === 'critical')
          found.push(
            `${page} ${scheme}: ${violation.id} ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
          )
    }
  }
  expect(found).toEqual([])
  await app.emulateMedia({ colorScheme: 'light' })

  // Its people shown, to a file and to a list, as the library's are: Company 12's three alone. The
  // export workers' code comes from the web host, the network back for it (the desktop app reads
  // it from its own files).
  await context.unroute(/.*/)
  await context.setOffline(false)
  await company.open('d12.com')
  await expect(company.count()).toHaveText('3 people')
  await company.exportButton().click()
  const downloadStarted = app.waitForEvent('download')
  await app.locator('.n-dropdown-option').filter({ hasText: 'CSV — the 3 people shown' }).click()
  const download = await downloadStarted
  expect(download.suggestedFilename()).toBe('People at Company 12.csv')
  const exported = Papa.parse<Record<string, string>>(
    readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, ''),
    { header: true, skipEmptyLines: true },
  ).data
  expect(exported.map((row) => [row['Name'], row['Email'], row['Company domain']])).toEqual([
    ['Mara Person212', 'mara.212@d12.com', 'd12.com'],
    ['Mara Person112', 'mara.112@d12.com', 'd12.com'],
    ['Mara Person12', 'mara.12@d12.com', 'd12.com'],
  ])
  await company.search().fill('person1')
  await expect(company.count()).toHaveText('2 found')
  await company.newListButton().click()
  await expect(app).toHaveURL(/#\/lists\/[^/]+$/)
  await expect(app.locator('[data-test="list-name"]')).toHaveText('People at Company 12 (person1)')
  await expect(results.rowCount()).toHaveText('2 rows')
  await expect(results.row(0)).toContainText('mara.112@d12.com')
  await expect(results.row(1)).toContainText('mara.12@d12.com')

  // A company the library has never heard of says so.
  await company.open('nowhere.example')
  await expect(company.root()).toContainText('The library does not know this company')
  await expect(company.tab('people')).toHaveText('People · 0')
})
