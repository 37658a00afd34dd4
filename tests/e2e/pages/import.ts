import { readFileSync } from 'node:fs'
import { expect, type Page } from '@playwright/test'
import { countRecords } from './database'

/** The import dialog, and files dropped on the window the way a desktop drag does. */
export class ImportDialog {
  constructor(readonly page: Page) {}

  dialog = () => this.page.locator('[data-test="import-dialog"]')
  overlay = () => this.page.locator('[data-test="drop-overlay"]')
  preview = () => this.page.locator('[data-test="import-preview"]')
  problem = () => this.page.locator('[data-test="import-problem"]')
  undecodable = () => this.page.locator('[data-test="import-undecodable"]')
  headerRow = () => this.page.locator('[data-test="import-header-row"]')
  /** What reading a workbook's sheet found (formulas without a value), one note each. */
  sheetNotes = () => this.page.locator('[data-test="import-sheet-note"]')
  progressDetail = () => this.page.locator('[data-test="import-progress-detail"]')
  review = () => this.page.locator('[data-test="import-review"]')
  /** A file dropped on a list's page: add it to the list, or import it as a new one. */
  dropOffer = () => this.page.locator('[data-test="drop-offer"]')
  /** The columns step of an append: where each column of the file goes in the list. */
  appendColumns = () => this.page.locator('[data-test="append-columns"]')
  appendColumn = (column: number) => this.page.locator(`[data-test="append-column-${column}"]`)
  issueCount = (kind: string) => this.page.locator(`[data-test="issue-${kind}"] [data-test="issue-count"]`)

  /** Starts a drag over the window, so the overlay shows; `drop` finishes it. */
  async dragOver(name: string, bytes: Uint8Array): Promise<void> {
    await this.page.evaluate(
      ({ name, data }) => {
        const transfer = new DataTransfer()
        transfer.items.add(new File([new Uint8Array(data)], name, { type: 'text/csv' }))
        ;(window as unknown as { pendingTransfer: DataTransfer }).pendingTransfer = transfer
        document.body.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }))
        document.body.dispatchEvent(
          new DragEvent('dragover', { bubbles: true, cancelable: true, dataTransfer: transfer }),
        )
      },
      { name, data: [...bytes] },
    )
  }

  async drop(): Promise<void> {
    await this.page.evaluate(() => {
      const transfer = (window as unknown as { pendingTransfer: DataTransfer }).pendingTransfer
      document.body.dispatchEvent(
        new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }),
      )
    })
  }

  async dropFile(name: string, bytes: Uint8Array): Promise<void> {
    await this.dragOver(name, bytes)
    await this.drop()
  }

  /** The blocks of rows stored in the page's database, all lists together. */
  storedBlocks(): Promise<number> {
    return countRecords(this.page, ['listBlocks'])
  }

  /** Builds a big file inside the page (no megabytes over the wire) and drops it; `generatedCsv` is the same file. */
  async dropGenerated(name: string, rows: number): Promise<void> {
    await this.page.evaluate(
      ({ name, rows }) => {
        const lines = ['First Name,Last Name,Company Domain,Notes']
        for (let i = 0; i < rows; i++) lines.push(`First${i},Last${i},company${i % 5000}.com,note ${i}`)
        const transfer = new DataTransfer()
        transfer.items.add(new File([lines.join('\n')], name, { type: 'text/csv' }))
        document.body.dispatchEvent(new DragEvent('dragenter', { bubbles: true, dataTransfer: transfer }))
        document.body.dispatchEvent(
          new DragEvent('drop', { bubbles: true, cancelable: true, dataTransfer: transfer }),
        )
      },
      { name, rows },
    )
  }

  /** Drops a generated file and starts reading it all: the import is running when this returns. */
  async startGeneratedImport(name: string, rows: number): Promise<void> {
    await this.dropGenerated(name, rows)
    await this.next()
    await this.readAll()
    await expect(this.progressDetail()).toContainText(/[1-9][\d,]* rows/)
  }

  async choose(select: string, option: string): Promise<void> {
    await this.page.locator(`[data-test="${select}"]`).click()
    await this.page.locator('.n-base-select-option', { hasText: option }).first().click()
    await expect(this.page.locator('.n-base-select-menu:visible')).toHaveCount(0)
  }

  /**
   * "Next" once the dialog has stopped moving: a click while its opening transition still scales it
   * can land where the button was a frame before and reach nothing (seen in CI: the preview and its
   * remembered mapping were ready, and no click arrived).
   */
  async next(): Promise<void> {
    await this.page.waitForFunction(
      () => !document.getAnimations().some((motion) => motion instanceof CSSTransition),
    )
    await this.page.locator('[data-test="import-next"]').click()
    await expect(this.page.locator('[data-test="import-start"]')).toBeVisible()
  }

  async readAll(): Promise<void> {
    await this.page.locator('[data-test="import-start"]').click()
  }

  /** From a dropped file's preview to the stored list: read every row, review, finish. */
  async importAll(): Promise<void> {
    await this.next()
    await this.readAll()
    await expect(this.review()).toBeVisible()
    await this.finish()
  }

  async finish(): Promise<void> {
    await this.page.locator('[data-test="import-finish"]').click()
    await expect(this.dialog()).toBeHidden()
  }

  async screenshot(name: string): Promise<void> {
    await this.page.screenshot({
      path: `test-results/screenshots/import-${name}.png`,
      animations: 'disabled',
    })
  }
}

export function sampleFile(name: string): Uint8Array {
  return new Uint8Array(readFileSync(`resources/samples/${name}`))
}

/** The file `dropGenerated` builds in the page, built here: the same bytes. */
export function generatedCsv(rows: number): Buffer {
  const lines = ['First Name,Last Name,Company Domain,Notes']
  for (let i = 0; i < rows; i++) lines.push(`First${i},Last${i},company${i % 5000}.com,note ${i}`)
  return Buffer.from(lines.join('\n'))
}
