import { controlClient } from '../../electron/sandbox/control/client'
import { expect, test } from './fixtures'
import { ProspectingPage } from './pages/prospecting'

test.use({ viewport: { width: 1440, height: 1500 } })

test('lead search: include and exclude, warnings before submit, run, save the results as a list', async ({
  app,
  webHost,
}) => {
  const p = new ProspectingPage(app)
  await p.shell.open('Lead search')
  // A fresh page says nothing against the user until they try to run an empty search.
  await expect(p.warning('empty_filters')).toHaveCount(0)
  await p.shell.screenshot('prospecting-lead-fresh')
  await p.button('run-search').click()
  await expect(p.warning('empty_filters')).toBeVisible()
  await expect(p.button('run-search')).toBeDisabled()
  await p.shell.screenshot('prospecting-lead-empty')

  await p.pick('contact_seniority', 'exclude', ['Intern'])
  await expect(p.warning('exclude_only')).toBeVisible()
  await expect(p.button('run-search')).toBeDisabled()

  await p.pick('company_industry', 'include', ['Software Development'])
  await p.pick('contact_seniority', 'include', ['VP', 'Director'])
  await p.pick('contact_department', 'exclude', ['Sales'])
  await expect(p.page.locator('[data-test="warnings"]')).toHaveCount(0)
  await p.number(p.button('limit'), 30)
  await p.button('enrich-email').click()
  await expect(p.button('lead-cost')).toContainText('0 to 30 credits')
  await p.shell.screenshot('prospecting-lead-built')

  await p.button('run-search').click()
  await expect(p.runState()).toHaveText('Done', { timeout: 30_000 })
  await expect(p.button('lead-results')).not.toContainText('No leads to show')
  const sent = webHost.frames
    .map((frame) => JSON.parse(frame) as { channel?: string; input?: { search?: unknown } })
    .find((frame) => frame.channel === 'jobs/startLeadSearch')
  expect(sent?.input?.search).toEqual({
    filters: {
      company_industry: { include: ['Software Development'], exclude: [] },
      contact_seniority: { include: ['vp', 'director'], exclude: ['intern'] },
      contact_department: { include: [], exclude: ['sales'] },
    },
    limit: 30,
    offset: 0,
    email: true,
  })
  const grid = p.page.locator('[data-test="lead-grid"]')
  await expect(grid.locator('tbody tr').first()).toBeVisible()
  await expect(grid).not.toContainText('Sales')
  // Every lead found is cached in the library, with its company.
  await expect.poll(() => p.cached('contacts')).toBe(30)
  expect(await p.cached('companies')).toBeGreaterThan(0)
  await p.shell.screenshot('prospecting-lead-results')

  await p.button('save-name').locator('input').fill('Software VPs and directors')
  await p.button('save-search').click()
  await expect(p.page.locator('[data-test="saved-searches"]')).toContainText('Software VPs and directors')
  await p.button('run-saved').click()
  await expect(p.page.getByText('Runs of this saved search')).toBeVisible()
  await expect(p.page.locator('[data-test="run-history"] tbody tr')).toHaveCount(1)
  await expect(p.runState()).toHaveText('Done', { timeout: 30_000 })

  // Requests, runs and results live in Dexie and the job ledger: a reload shows them again.
  await app.reload()
  await p.shell.open('Lead search')
  await expect(p.page.locator('[data-test="run-history"] tbody tr')).toHaveCount(2)
  await expect(grid.locator('tbody tr').first()).toBeVisible()
  // A lead's company leads to its page in the library; back returns to the results.
  const leadCompany = grid.locator('[data-test="lead-company"]').first()
  const companyName = await leadCompany.innerText()
  await leadCompany.click()
  await expect(p.page.locator('[data-test="company-name"]')).toHaveText(companyName)
  await p.page.keyboard.press('Alt+ArrowLeft')
  await expect(grid.locator('tbody tr').first()).toBeVisible()
  await expect(p.page.locator('[data-test="saved-searches"]')).toContainText('Software VPs and directors')
  // So does a lead's name, to their page, found by the contact id the search gave.
  const leadPerson = grid.locator('[data-test="lead-person"]').first()
  const personName = await leadPerson.innerText()
  await leadPerson.click()
  await expect(p.page.locator('[data-test="person-name"]')).toHaveText(personName)
  await expect(p.page.locator('[data-test="person-page"]')).toContainText('Lead search')
  await p.page.keyboard.press('Alt+ArrowLeft')
  await expect(grid.locator('tbody tr').first()).toBeVisible()

  await p.button('save-as-list').click()
  await p.button('list-name').locator('input').fill('Found in software')
  await p.page.getByRole('button', { name: 'Save list' }).click()
  await expect(p.page).toHaveURL(/#\/lists\/.+/, { timeout: 15_000 })
  await p.shell.screenshot('prospecting-lead-saved-as-list')

  await p.shell.open('Lead search')
  await p.page.locator('[data-test="facet-seniority"]').click()
  await p.page
    .locator('.n-base-select-option:visible')
    .getByText(/^VP \(\d+\)$/)
    .click()
  await p.page.keyboard.press('Escape')
  await p.button('add-to-list').click()
  await expect(p.page.getByText('Found in software (30 rows)')).toBeVisible()
  await p.shell.screenshot('prospecting-lead-add-to-list')
  await p.page.getByRole('button', { name: 'Add', exact: true }).click()
  await expect(p.page.getByText(/Added \d+ leads to the list/)).toBeVisible()
})

test('company search across three pages, each priced before it runs, de-duplicated', async ({ app }) => {
  const p = new ProspectingPage(app)
  await p.shell.open('Company search')
  await p.pick('company_industry', 'include', ['Banking'])
  await p.type('company', 'include', ['Nothing-Here.example'])
  await p.number(p.button('limit'), 10)
  await expect(p.button('first-page-cost')).toContainText('up to 10 credits')
  // Domains are compared case-sensitively by the service: they are lowercased as they are typed.
  await expect(p.field('company').locator('.n-tag')).toHaveText('nothing-here.example')
  await p.shell.screenshot('prospecting-company-built')
  // A domain filter narrows to that domain only: take it out again before searching.
  await p.field('company').locator('.n-tag__close').click()
  await expect(p.field('company').locator('.n-tag')).toHaveCount(0)

  await p.button('run-search').click()
  await expect(p.runState()).toHaveText('Done', { timeout: 30_000 })
  await expect(p.button('companies-found')).toContainText('1 fetched')
  await expect(p.button('next-page')).toContainText('up to 10 credits')
  await p.button('next-page').click()
  await expect(p.button('companies-found')).toContainText('2 fetched', { timeout: 30_000 })
  await expect(p.button('fetch-pages')).toContainText('Fetch')
  await p.number(p.button('page-count'), 2)
  await expect(p.button('fetch-pages')).toContainText('Fetch 2 pages (up to 20 credits)')
  await p.button('fetch-pages').click()
  await expect(p.button('companies-found')).toContainText('4 fetched', { timeout: 30_000 })
  await expect(p.button('company-results')).toContainText('Companies found (40)')
  await expect.poll(() => p.cached('companies')).toBe(40)
  await p.shell.screenshot('prospecting-company-pages')

  await p.page.locator('[data-test="company-grid"] tbody tr').first().click()
  await expect(p.page.locator('[data-test="company-detail"]')).toContainText('Headcount by department')
  await p.shell.screenshot('prospecting-company-detail')
  // A company found is in the library: its drawer leads to its page there.
  const found = await p.page.locator('.n-drawer-header__main').innerText()
  await p.page.locator('[data-test="result-company-page"]').click()
  await expect(p.page.locator('[data-test="company-name"]')).toHaveText(found)
})

test('company search on hold: explained, then submitted again after a top-up', async ({ app }) => {
  const p = new ProspectingPage(app)
  const control = controlClient(await p.sandboxUrl())
  // Below the price of one company: the page goes on hold and nothing is charged.
  await control.setCredits('demo', 0.5)
  await p.shell.open('Company search')
  await p.pick('company_industry', 'include', ['Insurance'])
  await p.number(p.button('limit'), 5)
  await p.button('run-search').click()
  await expect(p.runState()).toHaveText(/On hold/, { timeout: 30_000 })
  await expect(p.button('run-detail')).toContainText('Nothing was charged')
  await expect(p.button('run-detail')).toContainText('submitted again')
  expect(await control.balance('demo')).toBe(0.5)
  await p.shell.screenshot('prospecting-company-on-hold')

  await control.topUp('demo', 100)
  await p.button('submit-again').click()
  await expect(p.runState()).toHaveText('Done', { timeout: 30_000 })
  await expect(p.button('company-results')).toContainText('Companies found (5)')
  await expect(p.shell.credits()).toContainText('95 credits')
})

test('a company search stuck in processing ends at the time-out with a clear message and a retry', async ({
  app,
}) => {
  const p = new ProspectingPage(app)
  const control = controlClient(await p.sandboxUrl())
  await control.setFaults([{ endpoint: 'POST /company_finder/async', kind: 'stuck', times: 1 }])
  await p.shell.open('Company search')
  await p.pick('company_industry', 'include', ['Retail'])
  await p.number(p.button('limit'), 5)
  await p.button('run-search').click()
  // The fast sandbox scales the engine's poll time-out down to a few seconds.
  await expect(p.runState()).toHaveText('The search did not finish in time', { timeout: 40_000 })
  await expect(p.button('run-detail')).toContainText('still processing')
  await expect(p.button('keep-waiting')).toBeVisible()
  await p.shell.screenshot('prospecting-company-timed-out')

  await p.button('retry-search').click()
  await expect(p.runState()).toHaveText('Done', { timeout: 30_000 })
  await expect(p.button('company-results')).toContainText('Companies found (5)')
})

test('profile lookups: company and person, found and not found, 422 explained before submit', async ({
  app,
}) => {
  const p = new ProspectingPage(app)
  await p.shell.open('Profile lookups')
  await expect(p.button('lookup-company')).toBeDisabled()
  await expect(p.button('lookup-lead')).toBeDisabled()
  await expect(p.page.getByText('Give a company domain or a network URL')).toBeVisible()
  await p.button('lead-first').locator('input').fill('Jane')
  await p.button('lead-company').locator('input').fill('Acme')
  await expect(p.page.getByText('missing: last name, company domain')).toBeVisible()
  await expect(p.page.getByText('A company name does not replace the domain')).toBeVisible()
  await p.shell.screenshot('prospecting-lookups-empty')

  await p.button('company-domain').locator('input').fill('Acme-Widgets.com')
  await p.button('lookup-company').click()
  await expect(p.page.locator('[data-test="profile-company"]')).toContainText('acme-widgets.com')

  await p.button('lead-last').locator('input').fill('Doe')
  await p.button('lead-domain').locator('input').fill('acme-widgets.com')
  await p.button('lookup-lead').click()
  await expect(p.page.locator('[data-test="profile-lead"]')).toContainText('Jane Doe', { timeout: 15_000 })
  // The person's company, saved with them, links to its page.
  await expect(
    p.page.locator('[data-test="profile-lead"] [data-test="profile-company-page"]'),
  ).toHaveAttribute('href', /#\/library\/companies\/acme-widgets\.com$/)
  await p.shell.screenshot('prospecting-lookups-found')
  // And the person to theirs, by the contact id the service gave (followed at the end).
  const personPageLink = p.page.locator('[data-test="profile-lead"] [data-test="profile-person-page"]')
  await expect(personPageLink).toHaveAttribute('href', /#\/library\/people\/c:\d+$/)
  const personHref = (await personPageLink.getAttribute('href'))!

  await p.button('lead-domain').locator('input').fill('nobody.invalid')
  await p.button('lookup-lead').click()
  await expect(p.page.locator('[data-test="not-found-lead"]')).toContainText('Nothing was charged')

  await p.button('company-domain').locator('input').fill('nobody.invalid')
  await p.button('lookup-company').click()
  await expect(p.page.locator('[data-test="not-found-company"]')).toBeVisible()
  await p.shell.screenshot('prospecting-lookups-not-found')

  // A profile found is saved with its company, whose page it leads to.
  await p.button('company-domain').locator('input').fill('acme-widgets.com')
  await p.button('lookup-company').click()
  await p.page.locator('[data-test="profile-company"] [data-test="profile-company-page"]').click()
  await expect(p.page).toHaveURL(/#\/library\/companies\/acme-widgets\.com$/)
  await expect(p.page.locator('[data-test="company-name"]')).toHaveText('Acme Widgets')
  // Back, the lookups are as the user left them: what was typed and what it found.
  await p.page.goBack()
  await expect(p.button('company-domain').locator('input')).toHaveValue('acme-widgets.com')
  await expect(p.button('lead-first').locator('input')).toHaveValue('Jane')
  await expect(p.button('lead-domain').locator('input')).toHaveValue('nobody.invalid')
  await expect(p.page.locator('[data-test="profile-company"]')).toContainText('acme-widgets.com')
  await p.page.evaluate((to) => (location.hash = to), personHref.slice(personHref.indexOf('#')))
  await expect(p.page.locator('[data-test="person-name"]')).toHaveText('Jane Doe')
  await expect(p.page.locator('[data-test="person-page"]')).toContainText('Where it came from')
})
