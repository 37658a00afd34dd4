import { expect, type Locator, type Page } from '@playwright/test'
import { countRecords, libraryPeople } from './database'
import { ShellPage } from './shell'

/** Lead search, company search and profile lookups: the filter builder and the run controls. */
export class ProspectingPage {
  readonly shell: ShellPage

  constructor(readonly page: Page) {
    this.shell = new ShellPage(page)
  }

  field = (key: string) => this.page.locator(`[data-test="filter-${key}"]`)
  button = (name: string) => this.page.locator(`[data-test="${name}"]`)
  runState = () => this.page.locator('[data-test="run-state"]')
  warning = (code: string) => this.page.locator(`[data-test="warning-${code}"]`)

  /**
   * Picks exact values from a taxonomy picker (include or exclude). Each pick waits for every menu
   * to have closed first: a menu still leaving would offer the same label ("VP") as the one opening.
   */
  async pick(key: string, part: 'include' | 'exclude', values: string[]): Promise<void> {
    const select = this.field(key).locator(`[data-test="${part}"]`)
    const options = this.page.locator('.n-base-select-option:visible')
    for (const value of values) {
      await expect(options).toHaveCount(0)
      await select.click()
      await select.locator('input').fill(value)
      await options.getByText(value, { exact: true }).click()
      await this.page.keyboard.press('Escape')
    }
    await expect(options).toHaveCount(0)
  }

  /** Types free values (job titles, domains), each confirmed with Enter. */
  async type(key: string, part: 'include' | 'exclude', values: string[]): Promise<void> {
    const select = this.field(key).locator(`[data-test="${part}"]`)
    for (const value of values) {
      await select.click()
      await select.locator('input').fill(value)
      await this.page.keyboard.press('Enter')
    }
    await this.page.keyboard.press('Escape')
  }

  async number(locator: Locator, value: number | null): Promise<void> {
    const input = locator.locator('input')
    await input.fill(value === null ? '' : String(value))
    await input.blur()
  }

  /** Records in a table of the app's IndexedDB cache (people: as many as the library counts). */
  cached(table: 'contacts' | 'companies' | 'searchResults'): Promise<number> {
    return table === 'contacts' ? libraryPeople(this.page) : countRecords(this.page, [table])
  }

  /** The sandbox's address, as Settings shows it. */
  async sandboxUrl(): Promise<string> {
    await this.shell.open('Settings')
    const text = await this.page.getByText('The sandbox is running at').innerText()
    const url = /(http:\/\/127\.0\.0\.1:\d+)/.exec(text)?.[1]
    expect(url).toBeTruthy()
    return url!
  }
}
