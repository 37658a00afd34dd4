import { contactTraits } from '../../electron/sandbox/contacts'
import { enrichLead } from '../../electron/sandbox/jobs/enrichment'
import { moveOf, type MoveKind } from '../../electron/sandbox/movers'
import { resolveOptions } from '../../electron/sandbox/options'
import { getWorld } from '../../electron/sandbox/world'
import type { Person } from '../../electron/sandbox/world/types'
import { expect, test } from './fixtures'
import { PersonPage } from './pages/company'
import { ImportDialog } from './pages/import'
import { LibraryPage } from './pages/library'
import { RunPanel } from './pages/lists'
import { ShellPage } from './pages/shell'

test.describe.configure({ timeout: 180_000 })

/** The web host's sandbox runs on the default world: the test reads it to know who moves and how. */
const options = resolveOptions()
const world = getWorld(options.seed, {
  companies: options.worldCompanies,
  peoplePerCompany: options.worldPeoplePerCompany,
})
const ctx = { world: () => world, options }
const flags = { email: true, phone: false, verifyCatchAll: false }
const leadOf = (person: Person) => ({
  first_name: person.firstName,
  last_name: person.lastName,
  company_domain: person.company.domain,
})

interface Row {
  person: Person
  kind: MoveKind | null
  first: ReturnType<typeof enrichLead>['row']
  later: ReturnType<typeof enrichLead>['row']
}

/** The first people of the world the sandbox finds: two movers of each kind and 24 who stay put. */
function chooseRows(): Row[] {
  const wanted = new Map<MoveKind | null, number>([
    ['company', 2],
    ['title', 2],
    ['email', 2],
    [null, 24],
  ])
  const rows: Row[] = []
  for (const person of world.people) {
    const kind = moveOf(world, options.moverShare, person, contactTraits(world, person, false))
    const first = enrichLead(ctx, leadOf(person), flags, () => false).row
    if (!first.enriched || (wanted.get(kind) ?? 0) === 0) continue
    wanted.set(kind, wanted.get(kind)! - 1)
    rows.push({ person, kind, first, later: enrichLead(ctx, leadOf(person), flags, () => true).row })
    if ([...wanted.values()].every((left) => left === 0)) break
  }
  return rows
}

const rows = chooseRows()
const movers = rows.filter((row) => row.kind !== null)
const csv = new TextEncoder().encode(
  [
    'First Name,Last Name,Company,Company Domain',
    ...rows.map(({ person }) =>
      [person.firstName, person.lastName, person.company.name, person.company.domain].join(','),
    ),
  ].join('\n') + '\n',
)
const dayMs = 24 * 60 * 60 * 1000

test('people answered again: what moved is said, found by a facet and counted by the list', async ({
  app,
  context,
  webHost,
}) => {
  expect(rows).toHaveLength(30)
  // Nothing but the app's own host is reached from the page: the sandbox answers the host, not the page.
  const host = new URL(webHost.origin).origin
  await context.route(
    (url) => url.origin !== host,
    (route) => route.abort(),
  )
  const shell = new ShellPage(app)
  const run = new RunPanel(app)
  const library = new LibraryPage(app)
  const person = new PersonPage(app)

  await shell.open('Lists')
  const dialog = new ImportDialog(app)
  await dialog.dropFile('conference.csv', csv)
  await dialog.importAll()
  await expect(app.locator('[data-test="list-name"]')).toContainText('conference')
  await run.estimate()
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('30')
  await run.run()
  await run.waitDone()
  // A first answer changes nobody.
  await expect(app.locator('[data-test="list-summary"]')).toBeVisible()
  await expect(app.locator('[data-test="list-changed"]')).toHaveCount(0)

  // Some days later the researcher asks again for what is older than a day.
  const firstRunDone = Date.now()
  await app.clock.setSystemTime(firstRunDone + 3 * dayMs)
  await app.locator('[data-test="run-again"]').click()
  await app.locator('[data-test="opt-refresh"]').click()
  await app.locator('[data-test="refresh-days"] input').fill('1')
  await run.estimate()
  await expect(app.locator('[data-test="estimate-refreshed"]')).toHaveText('30')
  await expect(app.locator('[data-test="estimate-rows-sent"]')).toHaveText('30')
  await run.run()
  await run.waitDone()
  await app.clock.setSystemTime(Date.now() - 3 * dayMs)
  const seen = await app.evaluate(
    (at) => new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }).format(at),
    Date.now(),
  )

  // The list's summary counts its people whose latest answer changed them, and leads to them.
  const changed = app.locator('[data-test="list-changed"]')
  await expect(changed).toHaveText(
    '6 people of this list changed company, title or email at their latest answer: see them in the library.',
  )
  await shell.screenshot('what-changed-list')
  await changed.getByRole('link', { name: 'see them in the library' }).click()

  // The library's facet finds exactly the movers, none of those who stayed put.
  await expect(library.count()).toHaveText('6 found')
  const shown = library.grid().locator('.row:not(.pending)')
  await expect(shown).toHaveCount(6)
  const names = (await shown.allInnerTexts()).join('\n')
  for (const row of rows)
    if (row.kind === null) expect(names).not.toContain(row.first.contact_full_name!)
    else expect(names).toContain(row.first.contact_full_name!)
  await expect(library.facet('changed')).toContainText('Changed since the last answer')
  await shell.screenshot('what-changed-library')

  // Each mover's drawer and page say what changed and when.
  const said: Record<MoveKind, (row: Row) => string> = {
    company: (row) => `Moved from ${row.first.company_name} to ${row.later.company_name}, seen ${seen}`,
    title: (row) =>
      `Title changed from ${row.first.contact_job_title} to ${row.later.contact_job_title}, seen ${seen}`,
    email: (row) =>
      `Email changed from ${row.first.contact_email_address} to ${row.later.contact_email_address}, seen ${seen}`,
  }
  for (const kind of ['company', 'title', 'email'] as const) {
    const row = movers.find((mover) => mover.kind === kind)!
    await library.search().fill(row.first.contact_full_name!)
    const found = library.grid().locator('.row:not(.pending)[data-row-index="0"]')
    // The count of the search before may still show: the row says the search is this one's.
    await expect(found).toContainText(row.first.contact_full_name!)
    await expect(library.count()).toHaveText('1 found')
    // Their drawer says it (a cell other than the name opens it), then their page.
    await found.locator('.cell').nth(1).click()
    await expect(library.drawer().locator('[data-test="drawer-changes"]')).toContainText(said[kind](row))
    await app.keyboard.press('Escape')
    await expect(library.drawer()).toBeHidden()
    await found.locator('.cell').first().click()
    await expect(person.name()).toHaveText(row.first.contact_full_name!)
    const changes = app.locator('[data-test="person-changes"]')
    await expect(changes).toContainText('Changed since the last answer')
    await expect(changes).toContainText(said[kind](row))
    if (kind === 'company') {
      await expect(person.company()).toHaveText(row.later.company_name!)
      await shell.screenshot('what-changed-mover')
    }
    await app.keyboard.press('Alt+ArrowLeft')
    await expect(library.count()).toHaveText('1 found')
  }
})
