import { expect, type Page } from '@playwright/test'

/** A company's page in the library (`#/library/companies/<domain>`). */
export class CompanyPage {
  constructor(readonly page: Page) {}

  root = () => this.page.locator('[data-test="company-page"]')
  name = () => this.page.locator('[data-test="company-name"]')
  tab = (part: 'people' | 'lists' | 'searches' | 'profile') =>
    this.page.locator(`[data-test="company-tab-${part}"]`)
  search = () => this.page.locator('[data-test="company-people-search"] input')
  count = () => this.page.locator('[data-test="company-people-count"]')
  grid = () => this.page.locator('[data-test="company-people"] [data-test="grid"]')
  /** A row of the people's grid by its place, once its person is read. */
  row = (index: number) => this.grid().locator(`.row:not(.pending)[data-row-index="${index}"]`)
  /** A facet's filter: `emailStatus`, `seniority`, `country`. */
  facet = (name: string) => this.page.locator(`[data-test="company-facet-${name}"]`)
  options = () => this.page.locator('.n-base-select-option:visible')
  lists = () => this.page.locator('[data-test="company-list"]')
  searches = () => this.page.locator('[data-test="found-by-search"]')
  profile = () => this.page.locator('[data-test="company-profile"]')
  exportButton = () => this.page.locator('[data-test="company-export"]')
  newListButton = () => this.page.locator('[data-test="company-new-list"]')

  async open(domain: string): Promise<void> {
    await this.page.evaluate((to) => (location.hash = to), `#/library/companies/${domain}`)
    await expect(this.root()).toBeVisible()
  }
}

/** A person's page in the library (`#/library/people/<id>`). */
export class PersonPage {
  constructor(readonly page: Page) {}

  root = () => this.page.locator('[data-test="person-page"]')
  name = () => this.page.locator('[data-test="person-name"]')
  company = () => this.page.locator('[data-test="person-company"]')
  answers = () => this.page.locator('[data-test="person-answers"]')
  rows = () => this.page.locator('[data-test="person-row"]')
  searches = () => this.page.locator('[data-test="person-page"] [data-test="found-by"]')
}
