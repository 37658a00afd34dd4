import { expect, type Locator, type Page } from '@playwright/test'

export const seededListId = 'e2e-list'
export const seededRows = 200_000
/** Rows with results: the first quarter of the list. */
export const enrichedRows = 50_000
export const emailStatusCycle = ['deliverable', 'catch_all_safe', 'catch_all', 'not_found'] as const

/**
 * Replaces the app's IndexedDB ('leadkeeper') with a real version-2 database, as the version before
 * row blocks left one: Dexie's version-2 stores and indexes (IndexedDB version 20), one record per
 * row, written through the raw IndexedDB API: a 200,000-row list with results on its first 50,000
 * rows (unknown facets held as '' and 0, as version 1 wrote them, with the facet counts of version 2),
 * and a library of people and companies. The app upgrades it when it opens next.
 *
 * The writes run on a page of the same origin that is not the app (one of its own script files), so
 * no connection of the app holds the database meanwhile; the page returns to the app afterwards.
 */
export async function seedDatabase(
  page: Page,
  options: {
    awaitUpgrade?: boolean
    /** Rows of the list (200,000 unless given); the first quarter (at most 50,000) with results. */
    rows?: number
    /** False: stays on the page the database was written from, and the app does not open it. */
    returnToApp?: boolean
  } = {},
): Promise<void> {
  const rows = options.rows ?? seededRows
  const appUrl = page.url()
  const script = await page.evaluate(
    () => document.querySelector<HTMLScriptElement>('script[type="module"]')!.src,
  )
  await page.goto(script)
  await page.evaluate(
    async ({ listId, rowCount, enriched, cycle }) => {
      await new Promise<void>((resolve, reject) => {
        const request = indexedDB.deleteDatabase('leadkeeper')
        request.onsuccess = () => resolve()
        request.onerror = () => reject(request.error)
      })
      // Dexie's version 2 (src/db/schema.ts) as it creates it: IndexedDB version = Dexie version × 10.
      const stores: Record<string, [string | string[], [string, string | string[]][]]> = {
        lists: ['id', [['updatedAt', 'updatedAt']]],
        rows: [
          ['listId', 'index'],
          ['status', 'emailStatus', 'seniority', 'country', 'company', 'hasPhone'].map((facet) => [
            `[listId+${facet}]`,
            ['listId', facet],
          ]),
        ],
        contacts: [
          'id',
          [
            'identity',
            'nameLower',
            'emailLower',
            'domainLower',
            'emailStatus',
            'seniority',
            'country',
            'updatedAt',
          ].map((index) => [index, index]),
        ],
        companies: [
          'domain',
          ['nameLower', 'industry', 'country', 'updatedAt'].map((index) => [index, index]),
        ],
        jobs: ['jobId', ['listId', 'searchRunId', 'state'].map((index) => [index, index])],
        mappings: ['signature', []],
        savedSearches: ['id', ['kind', 'updatedAt'].map((index) => [index, index])],
        searchRuns: ['id', ['savedSearchId', 'kind', 'startedAt'].map((index) => [index, index])],
        searchResults: [['runId', 'key'], [['runId', 'runId']]],
        facetCounts: [['listId', 'facet', 'value'], []],
      }
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('leadkeeper', 20)
        request.onupgradeneeded = () => {
          for (const [name, [keyPath, indexes]] of Object.entries(stores)) {
            const store = request.result.createObjectStore(name, { keyPath })
            for (const [index, path] of indexes) store.createIndex(index, path)
          }
        }
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      const write = (stores: string[], fill: (tx: IDBTransaction) => void) =>
        new Promise<void>((resolve, reject) => {
          const tx = database.transaction(stores, 'readwrite')
          fill(tx)
          tx.oncomplete = () => resolve()
          tx.onerror = () => reject(tx.error)
        })
      const now = Date.now()
      const source = { kind: 'list', id: listId, label: 'Trade fair 2026', at: now - 86_400_000 }
      const countries = ['France', 'Germany', 'Spain', 'United Kingdom']
      const seniorities = ['manager', 'director', 'vp', 'entry']
      await write(['lists'], (tx) =>
        tx.objectStore('lists').put({
          id: listId,
          name: 'Trade fair 2026',
          createdAt: now - 86_400_000,
          updatedAt: now,
          source: {
            fileName: 'trade-fair.csv',
            size: 9_000_000,
            encoding: 'utf-8',
            delimiter: ',',
            hasHeader: true,
          },
          columns: ['First name', 'Last name', 'Company domain', 'Notes'],
          mapping: { first_name: 0, last_name: 1, company_domain: 2 },
          rowCount,
          state: 'done',
          jobIds: [],
          creditsSpent: 41_250,
        }),
      )
      // The counts the app keeps beside the rows (facetCounts, schema version 2), tallied as written.
      const counts = new Map<
        string,
        { listId: string; facet: string; value: string | number; count: number }
      >()
      const count = (facet: string, value: string | number) => {
        const key = JSON.stringify([facet, value])
        const known = counts.get(key)
        if (known) known.count += 1
        else counts.set(key, { listId, facet, value, count: 1 })
      }
      for (let start = 0; start < rowCount; start += 50_000) {
        await write(['rows'], (tx) => {
          const rows = tx.objectStore('rows')
          for (let index = start; index < Math.min(rowCount, start + 50_000); index += 1) {
            const company = `d${index % 500}.com`
            const values = [
              `First${index}`,
              `Last${index}`,
              company,
              index === 1 ? '=HYPERLINK("x")' : `note ${index}`,
            ]
            const status = cycle[index % 4]!
            if (index >= enriched) count('status', 'pending')
            else if (status === 'not_found') count('status', 'not_found')
            if (index >= enriched) {
              rows.put({
                listId,
                index,
                values,
                issues: [],
                skip: false,
                status: 'pending',
                emailStatus: '',
                seniority: '',
                country: '',
                company: '',
                hasPhone: 0,
              })
            } else if (status === 'not_found') {
              rows.put({
                listId,
                index,
                values,
                issues: [],
                skip: false,
                status: 'not_found',
                emailStatus: '',
                seniority: '',
                country: '',
                company: '',
                hasPhone: 0,
              })
            } else {
              const country = countries[index % 4]!
              const seniority = seniorities[index % 3]!
              const hasPhone = index % 5 === 0 ? 1 : 0
              count('status', 'found')
              count('emailStatus', status)
              count('seniority', seniority)
              count('country', country)
              count('company', `Company ${index % 500}`)
              if (hasPhone) count('hasPhone', 1)
              rows.put({
                listId,
                index,
                values,
                issues: [],
                skip: false,
                status: 'found',
                result: {
                  enriched: true,
                  contact_id: index,
                  contact_full_name: `First${index} Last${index}`,
                  contact_email_address: `first${index}@${company}`,
                  contact_email_address_status: status,
                  contact_phone_number: hasPhone ? `+33 6 ${String(index).padStart(8, '0')}` : null,
                  contact_job_title: 'Buyer',
                  contact_seniority: seniority,
                  contact_location_country: country,
                  company_name: `Company ${index % 500}`,
                  company_domain: company,
                },
                emailStatus: status,
                seniority,
                country,
                company: `Company ${index % 500}`,
                hasPhone,
                contactId: `c:${index}`,
              })
            }
          }
        })
      }
      await write(['facetCounts'], (tx) => {
        for (const record of counts.values()) tx.objectStore('facetCounts').put(record)
      })
      await write(['contacts', 'companies'], (tx) => {
        const contacts = tx.objectStore('contacts')
        for (let index = 0; index < 300; index += 1) {
          const first = ['Mara', 'Otto', 'Lina', 'Paul'][index % 4]!
          const domain = `d${index % 100}.com`
          const fullName = `${first} Person${index}`
          const email = `${first.toLowerCase()}.${index}@${domain}`
          contacts.put({
            id: `c:${index}`,
            fullName,
            email,
            emailStatus: cycle[index % 3]!,
            phone: index % 5 === 0 ? '+33 6 12 34 56 78' : '',
            jobTitle: 'Buyer',
            seniority: seniorities[index % 3]!,
            country: countries[index % 4]!,
            companyName: `Company ${index % 100}`,
            companyDomain: domain,
            networkUrl: `https://network.example/in/person-${index}`,
            identity: `${first.toLowerCase()} person${index}@${domain}`,
            nameLower: fullName.toLowerCase(),
            emailLower: email,
            domainLower: domain,
            data: {
              contact_id: index,
              contact_full_name: fullName,
              contact_email_address: email,
              company_domain: domain,
            },
            sources: [source],
            firstSeenAt: source.at,
            updatedAt: now,
          })
        }
        const companies = tx.objectStore('companies')
        for (let index = 0; index < 100; index += 1) {
          const name = `Company ${index}`
          const domain = `d${index}.com`
          companies.put({
            domain,
            name,
            nameLower: name.toLowerCase(),
            industry: index % 2 ? 'Software' : 'Retail',
            country: countries[index % 4]!,
            data: {
              company_name: name,
              company_domain: domain,
              company_website: `https://${domain}`,
              company_network_url: `https://network.example/company/${index}`,
              company_fundingdb_url: `https://fundingdb.example/${index}`,
              company_industry: index % 2 ? 'Software' : 'Retail',
              company_description: 'Makes things people need, in several countries.',
              company_founded_year: 2001 + (index % 20),
              company_employees_count: 120 + index,
              company_employees_by_department: { engineering: 60, sales: 30, marketing: 12, operations: 18 },
              company_technologies: ['vue', 'postgresql', 'stripe'],
              company_keywords: ['saas', 'b2b'],
              company_last_funding_round_name: 'series_b',
              company_last_amount_raised_usd: 25_000_000,
              company_total_amount_raised_usd: 41_500_000,
              company_last_funding_date: '2025-03-14',
              company_head_quarters_city: 'Lyon',
              company_head_quarters_country: countries[index % 4],
              company_locations_count: 3,
              company_active_job_postings_count: 7,
            },
            sources: [source, { kind: 'company_search', id: 'run-1', label: 'Software in France', at: now }],
            firstSeenAt: source.at,
            updatedAt: now,
          })
        }
      })
      database.close()
    },
    {
      listId: seededListId,
      rowCount: rows,
      enriched: Math.min(enrichedRows, Math.floor(rows / 4)),
      cycle: [...emailStatusCycle],
    },
  )
  if (options.returnToApp === false) return
  await page.goto(appUrl)
  // The app upgrades the database as it opens it (version 7 of Dexie is IndexedDB version 70); a
  // reload before that ends rolls the upgrade back and starts it again. indexedDB.databases() may
  // name the new version while its upgrade still runs, so wait for an opening of our own: it is
  // queued behind the app's upgrade and answers only once that upgrade has committed.
  if (options.awaitUpgrade !== false) {
    await page.waitForFunction(
      () =>
        new Promise<boolean>((resolve) => {
          const request = indexedDB.open('leadkeeper')
          request.onsuccess = () => {
            const database = request.result
            const upgraded = database.version === 70
            database.close()
            resolve(upgraded)
          }
          request.onerror = () => resolve(false)
        }),
      null,
      { timeout: 180_000, polling: 500 },
    )
  }
}

/** A drawer slides in: wait until it rests inside the window before looking at it. */
/** The open menu's options whose label does not fit (cut short with an ellipsis). */
export function cutOptions(page: Page): Promise<string[]> {
  return page.locator('.n-base-select-option:visible').evaluateAll((options) =>
    options.flatMap((option) => {
      const content = option.querySelector('.n-base-select-option__content')
      return content && content.scrollWidth > content.clientWidth ? [content.textContent ?? ''] : []
    }),
  )
}

export async function settled(drawer: Locator): Promise<void> {
  const width = drawer.page().viewportSize()!.width
  await expect
    .poll(async () => {
      const box = await drawer.boundingBox()
      return box ? Math.round(box.x + box.width) : Infinity
    })
    .toBeLessThanOrEqual(width)
}

/**
 * A grid's row `index` as the user sees its first cell: where the cell stands and where the grid's
 * scroller starts (px, in the page), its text, and the text at a point inside it, which is the cell's
 * only when no cell scrolled under it shows over it.
 */
export async function firstCellSeen(grid: Locator, index: number) {
  const scroller = (await grid.locator('[data-test="grid-scroller"]').boundingBox())!
  const cell = grid.locator(`.row:not(.pending)[data-row-index="${index}"] > .cell`).first()
  const box = (await cell.boundingBox())!
  const seen = await grid
    .page()
    .evaluate(({ x, y }) => document.elementFromPoint(x, y)?.textContent ?? null, {
      x: box.x + 6,
      y: box.y + box.height / 2,
    })
  return { edge: scroller.x, x: box.x, text: await cell.textContent(), seen }
}

export class ResultsPage {
  constructor(readonly page: Page) {}

  results = () => this.page.locator('[data-test="list-results"]')
  grid = () => this.results().locator('[data-test="grid"]')
  scroller = () => this.grid().locator('[data-test="grid-scroller"]')
  rowCount = () => this.page.locator('[data-test="row-count"]')
  /** A row once read: a row still being read keeps, hidden, what its element showed before. */
  row = (index: number) => this.grid().locator(`.row:not(.pending)[data-row-index="${index}"]`)
  header = () => this.grid().locator('.header')
  drawer = () => this.page.locator('[data-test="row-drawer"]')

  async goto(listId = seededListId): Promise<void> {
    await this.page.goto(new URL(`#/lists/${listId}`, this.page.url()).href)
  }

  /** Rows drawn and loaded, in order: their first cell is the row number. */
  async shownNumbers(): Promise<number[]> {
    const cells = await this.grid().locator('.row:not(.pending) .cell:first-child').allInnerTexts()
    return cells.map((text) => Number(text.replace(/\D/g, '')))
  }
}

export class LibraryPage {
  constructor(readonly page: Page) {}

  search = () => this.page.locator('[data-test="library-search"] input')
  grid = () => this.page.locator('[data-test="library"] [data-test="grid"]')
  count = () => this.page.locator('[data-test="library-count"]')
  tab = (name: string) => this.page.locator('[data-test="library"] .n-tabs-tab').filter({ hasText: name })
  drawer = () => this.page.locator('[data-test="library-drawer"]')
  company = () => this.page.locator('[data-test="company-detail"]')
  /** A facet's filter (`emailStatus`, `seniority`, `country`, `industry`, `company-country`). */
  facet = (name: string) => this.page.locator(`[data-test="library-facet-${name}"]`)
  /** The options of the facet filter open, as their labels read ("France · 75"). */
  options = () => this.page.locator('.n-base-select-option:visible')

  /** Opens a facet's filter and reads its options, then closes it. */
  async facetOptions(name: string): Promise<string[]> {
    await this.facet(name).click()
    await expect(this.options().first()).toBeVisible()
    const labels = (await this.options().allInnerTexts()).map((text) => text.trim())
    await this.page.keyboard.press('Escape')
    await expect(this.options()).toHaveCount(0)
    return labels
  }
}
