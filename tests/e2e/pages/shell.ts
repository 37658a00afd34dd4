import { expect, type Page } from '@playwright/test'

export class ShellPage {
  constructor(readonly page: Page) {}

  sidebar = () => this.page.locator('[data-test="sidebar"]')
  credits = () => this.page.locator('[data-test="credits"]')
  title = () => this.page.locator('h1')

  async open(section: string): Promise<void> {
    await this.sidebar().getByText(section, { exact: true }).click()
    await expect(this.title()).toHaveText(section)
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({ path: `test-results/screenshots/${name}.png`, fullPage: true })
  }
}
