import AxeBuilder from '@axe-core/playwright'
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
