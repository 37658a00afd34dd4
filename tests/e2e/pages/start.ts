import { expect, type Page } from '@playwright/test'

/** The Start page: the drop zone, and on the sandbox the sample list. */
export class StartPage {
  constructor(readonly page: Page) {}

  trySample = () => this.page.locator('[data-test="home-try-sample"]')

  /** "Try a sample list": its search runs first, then the import dialog opens on the sample's file. */
  async openSample(): Promise<void> {
    await this.trySample().click()
    // The sandbox's world is built on first use and the sample's search runs before the dialog opens.
    await expect(this.page.locator('[data-test="import-dialog"]')).toBeVisible({ timeout: 60_000 })
  }
}
