import { expect, type Page } from '@playwright/test'

/** The enrichment panel of a list: options, estimate, run and live progress. */
export class RunPanel {
  constructor(readonly page: Page) {}

  panel = () => this.page.locator('[data-test="run-panel"]')
  estimateCost = () => this.page.locator('[data-test="estimate-cost"]')
  estimateTable = () => this.page.locator('[data-test="estimate-table"]')
  state = () => this.page.locator('[data-test="job-state"]')
  counts = () => this.page.locator('[data-test="run-counts"]')

  async estimate(): Promise<void> {
    await this.page.locator('[data-test="estimate"]').click()
    await expect(this.estimateCost()).toBeVisible()
  }

  /** Starts a run and returns once its own progress shows (not the previous run's "Done"). */
  async run(): Promise<void> {
    const jobId = this.page.locator('[data-test="job-id"]')
    const before = (await jobId.count()) > 0 ? await jobId.first().innerText() : null
    await this.page.locator('[data-test="run"]').click()
    await expect(this.state()).toBeVisible()
    if (before !== null) await expect(jobId.first()).not.toHaveText(before)
  }

  async waitDone(): Promise<void> {
    await expect(this.state()).toHaveText('Done', { timeout: 60_000 })
  }
}
