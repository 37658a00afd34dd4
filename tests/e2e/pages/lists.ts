import { readFileSync } from 'node:fs'
import { expect, type Page } from '@playwright/test'
import Papa from 'papaparse'

/**
 * Exports the open list as CSV, every row, and reads the downloaded file back as records: for a
 * spreadsheet (formulas neutralised) unless asked for another system (values as they are).
 */
export async function exportAllCsv(
  page: Page,
  csvFor: 'spreadsheet' | 'import' = 'spreadsheet',
): Promise<Record<string, string>[]> {
  const downloadStarted = page.waitForEvent('download')
  await page.locator('[data-test="export"]').click()
  const kind =
    csvFor === 'import'
      ? 'CSV for importing into another system \\(values as they are\\)'
      : 'CSV for a spreadsheet \\(formulas neutralised\\)'
  await page.getByText(new RegExp(`^${kind} — all [\\d,]+ rows$`)).click()
  const text = readFileSync((await (await downloadStarted).path())!, 'utf8')
  return Papa.parse<Record<string, string>>(text.replace(/^\ufeff/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data
}

/** The name of an export file made in 1970: older than any export is kept. */
export const oldExportName = '1000-planted.part'

/** Puts an old export file where exports are written, as a crashed or forgotten export leaves one. */
export async function plantOldExport(page: Page): Promise<void> {
  await page.evaluate(async (name) => {
    const root = await navigator.storage.getDirectory()
    const folder = await root.getDirectoryHandle('exports', { create: true })
    const file = await folder.getFileHandle(name, { create: true })
    const writable = await file.createWritable()
    await writable.write('old rows')
    await writable.close()
  }, oldExportName)
}

/** The export files (in the origin's private file system), with their sizes in bytes. */
export async function exportFiles(page: Page): Promise<{ name: string; size: number }[]> {
  return page.evaluate(async () => {
    const root = await navigator.storage.getDirectory()
    const folder = await root.getDirectoryHandle('exports', { create: true })
    const files: { name: string; size: number }[] = []
    for await (const [name, handle] of folder.entries())
      if (handle instanceof FileSystemFileHandle) files.push({ name, size: (await handle.getFile()).size })
    return files
  })
}

/** The enrichment panel of a list: options, estimate, run and live progress. */
export class RunPanel {
  constructor(readonly page: Page) {}

  panel = () => this.page.locator('[data-test="run-panel"]')
  estimateCost = () => this.page.locator('[data-test="estimate-cost"]')
  estimateTable = () => this.page.locator('[data-test="estimate-table"]')
  state = () => this.page.locator('[data-test="job-state"]')
  counts = () => this.page.locator('[data-test="run-counts"]')
  /** A figure of what the run found (`emails`, `withoutEmail`, `phones`, `withoutPhone`, `found`, `notFound`). */
  found = (key: string) => this.counts().locator(`[data-test="run-${key}"]`)

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

/** The list's summary: its headline of what the rows hold, its figures and bars. */
export class ListSummary {
  constructor(readonly page: Page) {}

  card = () => this.page.locator('[data-test="list-summary"]')
  headline = () => this.page.locator('[data-test="summary-headline"]')
  /** A part of the headline (`emails`, `withoutEmail`, `phones`, `withoutPhone`, `found`, `notFound`). */
  part = (key: string) => this.page.locator(`[data-test="summary-${key}"]`)
}
