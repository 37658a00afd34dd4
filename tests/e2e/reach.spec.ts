import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { ShellPage } from './pages/shell'

const pages = [
  { path: '/', title: 'Start', name: 'start' },
  { path: '/lists', title: 'Lists', name: 'lists' },
  { path: '/lead-search', title: 'Lead search', name: 'lead-search' },
  { path: '/company-search', title: 'Company search', name: 'company-search' },
  { path: '/lookups', title: 'Profile lookups', name: 'lookups' },
  { path: '/library', title: 'Library', name: 'library' },
  { path: '/settings', title: 'Settings', name: 'settings' },
]
const sizes = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
]

test('every page at both sizes and in both themes, with no serious accessibility violation', async ({
  app,
}) => {
  test.setTimeout(240_000)
  const shell = new ShellPage(app)
  const found: string[] = []
  for (const scheme of ['light', 'dark'] as const) {
    await app.emulateMedia({ colorScheme: scheme })
    for (const size of sizes) {
      await app.setViewportSize(size)
      for (const page of pages) {
        await app.goto(new URL(`#${page.path}`, app.url()).href)
        await expect(shell.title()).toHaveText(page.title)
        await app.waitForTimeout(300)
        await app.screenshot({
          path: `test-results/screenshots/reach-${page.name}-${size.width}-${scheme}.png`,
          fullPage: true,
          animations: 'disabled',
        })
        const result = await new AxeBuilder({ page: app }).analyze()
        for (const violation of result.violations) {
          if (violation.impact !== 'serious' && violation.impact !== 'critical') continue
          found.push(
            `${page.name} ${size.width} ${scheme}: ${violation.id} (${violation.impact}) ${violation.help} — ${violation.nodes
              .slice(0, 3)
              .map((node) => node.target.join(' '))
              .join(' | ')}`,
          )
        }
      }
    }
  }
  expect(found).toEqual([])

  // At 1024 × 700, chosen tags in one box never squeeze its neighbour.
  await app.emulateMedia({ colorScheme: 'light' })
  await app.setViewportSize({ width: 1024, height: 700 })
  await app.goto(new URL('#/lead-search', app.url()).href)
  const seniority = app.locator('[data-test="filter-contact_seniority"]')
  for (const value of ['VP', 'Director', 'C-suite', 'Manager']) {
    await seniority.locator('[data-test="include"]').click()
    await app.locator('.n-base-select-option:visible').getByText(value, { exact: true }).click()
  }
  await app.keyboard.press('Escape')
  const include = (await seniority.locator('[data-test="include"]').boundingBox())!
  const exclude = (await seniority.locator('[data-test="exclude"]').boundingBox())!
  expect(Math.abs(include.width - exclude.width)).toBeLessThan(2)
  expect(exclude.width).toBeGreaterThan(120)
  await app.screenshot({
    path: 'test-results/screenshots/reach-lead-search-1024-tags.png',
    animations: 'disabled',
  })
})

test("the keyboard: Tab to Start's file picker, its focus shown, Enter; Escape and Enter in the import", async ({
  app,
}) => {
  const shell = new ShellPage(app)
  await expect(app.locator('[data-test="home-drop-zone"]')).toBeVisible()
  // Tab to "Choose a file…", whose focus is visible, and press Enter.
  const pick = app.locator('[data-test="home-pick-file"]')
  for (
    let step = 0;
    step < 40 && !(await pick.evaluate((element) => element === document.activeElement));
    step++
  )
    await app.keyboard.press('Tab')
  await expect(pick).toBeFocused()
  const outline = await pick.evaluate(
    (element) => getComputedStyle(element).boxShadow + getComputedStyle(element).outlineStyle,
  )
  expect(outline).not.toBe('nonenone')
  const chooser = app.waitForEvent('filechooser')
  await app.keyboard.press('Enter')
  await (await chooser).setFiles('resources/samples/contacts-sample.csv')
  const dialog = app.locator('[data-test="import-dialog"]')
  await expect(dialog).toBeVisible()
  // Escape closes the dialog; the file can be picked again and taken through by Enter on each step.
  await app.keyboard.press('Escape')
  await expect(dialog).toBeHidden()
  const again = app.waitForEvent('filechooser')
  await pick.focus()
  await app.keyboard.press('Enter')
  await (await again).setFiles('resources/samples/contacts-sample.csv')
  await expect(dialog).toBeVisible()
  for (const step of ['import-next', 'import-start', 'import-finish']) {
    const button = app.locator(`[data-test="${step}"]`)
    await expect(button).toBeEnabled({ timeout: 15_000 })
    await button.focus()
    await app.keyboard.press('Enter')
  }
  await expect(dialog).toBeHidden()
  await expect(app.locator('[data-test="list-name"]')).toContainText('contacts-sample')
  await shell.screenshot('reach-keyboard-import')
})

/** Presses Tab until `target` (or something inside it) has the focus. */
async function tabTo(app: Page, target: Locator, max = 90): Promise<void> {
  for (let step = 0; step < max; step++) {
    const there = await target
      .first()
      .evaluate((element) => element === document.activeElement || element.contains(document.activeElement))
      .catch(() => false)
    if (there) return
    await app.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached ${target.toString()}`)
}

/** The focused element shows that it is: an outline or a ring, on it or on its frame (the grid's). */
async function expectFocusShown(app: Page): Promise<void> {
  const shown = await app.evaluate(() => {
    const element = document.activeElement
    if (!element || element === document.body) return 'nothing focused'
    const marked = (node: Element | null) => {
      if (!node) return false
      const style = getComputedStyle(node)
      return style.outlineStyle !== 'none' || style.boxShadow !== 'none'
    }
    return marked(element) || marked(element.parentElement) ? 'shown' : element.outerHTML.slice(0, 120)
  })
  expect(shown).toBe('shown')
}

/** From wherever the focus is, Tab round to the sidebar's section, and Enter. */
async function openSection(app: Page, shell: ShellPage, section: string): Promise<void> {
  const item = shell
    .sidebar()
    .locator('a')
    .filter({ hasText: new RegExp(`^${section}$`) })
  await tabTo(app, item)
  await expectFocusShown(app)
  await app.keyboard.press('Enter')
  await expect(shell.title()).toHaveText(section)
}

/** A select opened with Enter, its first option chosen with the arrow and Enter, closed with Escape. */
async function chooseFirst(app: Page, select: Locator): Promise<void> {
  await tabTo(app, select)
  await app.keyboard.press('Enter')
  await expect(app.locator('.n-base-select-menu:visible')).toHaveCount(1)
  await app.keyboard.press('ArrowDown')
  await app.keyboard.press('Enter')
  await app.keyboard.press('Escape')
  await expect(app.locator('.n-base-select-menu:visible')).toHaveCount(0)
  await expect(select.locator('.n-tag').first()).toBeVisible()
}

test('every page by keyboard alone: the sidebar, a list and its rows, both searches, a lookup, the library, settings', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const shell = new ShellPage(app)

  // Start: the file picker, then the import dialog's steps, each reached by Tab and run by Enter.
  await expect(app.locator('[data-test="home-drop-zone"]')).toBeVisible()
  await tabTo(app, app.locator('[data-test="home-pick-file"]'))
  const chooser = app.waitForEvent('filechooser')
  await app.keyboard.press('Enter')
  await (await chooser).setFiles('resources/samples/contacts-sample.csv')
  for (const step of ['import-next', 'import-start', 'import-finish']) {
    const button = app.locator(`[data-test="${step}"]`)
    await expect(button).toBeEnabled({ timeout: 15_000 })
    await tabTo(app, button)
    await expectFocusShown(app)
    await app.keyboard.press('Enter')
  }
  await expect(app.locator('[data-test="list-name"]')).toContainText('contacts-sample')

  // A list: its rows by the arrows, one opened by Enter and closed by Escape; its cost estimated.
  const scroller = app.locator('[data-test="grid-scroller"]')
  await expect(app.locator('[data-test="grid"] .row:not(.pending)').first()).toBeVisible()
  await tabTo(app, scroller)
  await expectFocusShown(app)
  await app.keyboard.press('ArrowDown')
  await app.keyboard.press('ArrowDown')
  await expect(app.locator('[data-test="grid"] .row.active')).toHaveAttribute('data-row-index', '2')
  await app.screenshot({ path: 'test-results/screenshots/reach-keyboard-grid.png', animations: 'disabled' })
  await app.keyboard.press('Enter')
  const drawer = app.locator('[data-test="row-drawer"]')
  await expect(drawer).toContainText('Row 3')
  await shell.screenshot('reach-keyboard-row')
  await app.keyboard.press('Escape')
  await expect(drawer).toBeHidden()
  await tabTo(app, app.locator('[data-test="estimate"]'))
  await app.keyboard.press('Enter')
  await expect(app.locator('[data-test="estimate-table"]')).toBeVisible({ timeout: 15_000 })

  // Lists: each list is a link.
  await openSection(app, shell, 'Lists')
  await tabTo(app, app.locator('[data-test="lists-table"] a.name'))
  await expectFocusShown(app)
  await app.keyboard.press('Enter')
  await expect(app.locator('[data-test="list-name"]')).toContainText('contacts-sample')

  // Lead search: a seniority chosen from its select, the search run with Enter.
  await openSection(app, shell, 'Lead search')
  await chooseFirst(app, app.locator('[data-test="filter-contact_seniority"] [data-test="include"]'))
  await tabTo(app, app.locator('[data-test="run-search"]'))
  await app.keyboard.press('Enter')
  await expect(app.locator('[data-test="run-state"]')).toHaveText('Done', { timeout: 30_000 })

  // Company search: an industry, the first page, a company opened from the results and closed.
  await openSection(app, shell, 'Company search')
  await chooseFirst(app, app.locator('[data-test="filter-company_industry"] [data-test="include"]'))
  await tabTo(app, app.locator('[data-test="run-search"]'))
  await app.keyboard.press('Enter')
  await expect(app.locator('[data-test="run-state"]')).toHaveText('Done', { timeout: 30_000 })
  await tabTo(app, app.locator('.open-company'))
  await expectFocusShown(app)
  await app.keyboard.press('Enter')
  const company = app.locator('.n-drawer')
  await expect(company).toBeVisible()
  await app.keyboard.press('Escape')
  await expect(company).toBeHidden()

  // Profile lookups: typed, then looked up with Enter.
  await openSection(app, shell, 'Profile lookups')
  await tabTo(app, app.locator('[data-test="company-domain"]'))
  await app.keyboard.type('acme-widgets.com')
  await tabTo(app, app.locator('[data-test="lookup-company"]'))
  await app.keyboard.press('Enter')
  await expect(app.locator('[data-test="profile-company"]')).toContainText('acme-widgets.com')

  // Library: the people found above, one opened from the grid by Enter, closed by Escape.
  await openSection(app, shell, 'Library')
  await expect(app.locator('[data-test="grid"] .row:not(.pending)').first()).toBeVisible()
  await tabTo(app, scroller)
  await app.keyboard.press('Enter')
  const person = app.locator('[data-test="library-drawer"]')
  await expect(person).toBeVisible()
  await shell.screenshot('reach-keyboard-library')
  await app.keyboard.press('Escape')
  await expect(person).toBeHidden()
  await expect(scroller).toBeFocused()
  // Focus moved on stays where it went, after the drawer's closing animation too.
  await app.keyboard.press('Shift+Tab')
  const focused = () => app.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))
  const moved = await focused()
  await app.waitForTimeout(1_000)
  expect(await focused()).toBe(moved)

  // Settings: a value typed and saved with Enter.
  await openSection(app, shell, 'Settings')
  await tabTo(app, app.locator('[data-test="threshold"]'))
  await app.keyboard.press('ControlOrMeta+a')
  await app.keyboard.type('250')
  await tabTo(app, app.locator('[data-test="save-address"]'))
  await expectFocusShown(app)
  await app.keyboard.press('Enter')
  await expect(app.getByText(/saved/i).first()).toBeVisible()
})
