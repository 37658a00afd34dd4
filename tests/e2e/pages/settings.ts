import type { Page } from '@playwright/test'

export class SettingsPage {
  constructor(readonly page: Page) {}

  keyInput = () => this.page.locator('[data-test="api-key"] input')
  keyStatus = () => this.page.locator('[data-test="key-status"]')
  masked = () => this.page.locator('[data-test="key-masked"]')
  sandboxSwitch = () => this.page.locator('[data-test="use-sandbox"]')

  async saveKey(key: string, storage: 'persistent' | 'session'): Promise<void> {
    await this.keyInput().fill(key)
    await this.page.locator(`[data-test="storage-${storage}"]`).click()
    await this.page.locator('[data-test="save-key"]').click()
  }
}
