import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import ExcelJS from 'exceljs'
import type { Page } from 'playwright-core'
import { buildDir, sampleRendererRss } from './browser'
import { call, inBrowser } from './browser-bench'
import type { BenchContext } from './context'
import type { Figure } from './figures'
import { figure } from './figures'
import { columns, rowValues } from './page/kit'

const perSecond = (rows: number, ms: number) => Math.round(rows / (ms / 1000))

/**
 * A workbook as a spreadsheet program saves it (ExcelJS, shared strings, not the app's own writer):
 * a "Read me" sheet first, then the list of `rows` people; written beside the page helpers, where
 * the web host serves it.
 */
async function writeWorkbook(rows: number): Promise<string> {
  const name = `bench-${rows}.xlsx`
  const folder = join(buildDir, 'renderer', 'bench')
  mkdirSync(folder, { recursive: true })
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: join(folder, name),
    useSharedStrings: true,
    useStyles: false,
  })
  const readMe = book.addWorksheet('Read me')
  readMe.addRow(['People met at the trade fair; do not change the column names.']).commit()
  await readMe.commit()
  const sheet = book.addWorksheet('People')
  sheet.addRow(columns).commit()
  for (let i = 0; i < rows; i++) sheet.addRow(rowValues(i)).commit()
  await sheet.commit()
  await book.commit()
  return name
}

interface Phase {
  ms: number
  longestTaskMs: number
  longTasks: number
}

/** Drop → sheet found and previewed → "Read all rows" → review, timed as a user waits for each. */
async function workbookThroughUi(
  page: Page,
): Promise<{ preview: Phase; review: Phase; sheet: string; listId: string }> {
  await page.evaluate(
    () => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/lists'),
  )
  await page.locator('[data-test="sidebar"]').waitFor()
  await call(page, 'startClock')
  await call(page, 'dropCsv')
  const preview = await call(page, 'lap', '[data-test="import-preview"]')
  const sheet = (await page.locator('[data-test="import-sheet"]').innerText()).trim()
  await page.locator('[data-test="import-next"]').click()
  await page.locator('[data-test="import-start"]').click()
  const review = await call(page, 'awaitImportEnd', '[data-test="import-review"]')
  await page.locator('[data-test="import-finish"]').click()
  await page.waitForURL(/#\/lists\/[0-9a-f-]{36}$/, { timeout: 300_000 })
  const listId = /#\/lists\/([0-9a-f-]{36})$/.exec(page.url())![1]!
  return { preview, review, sheet, listId }
}

/**
 * An Excel workbook of 100,000 people (20,000 with --quick) imported through the dialog, beside the
 * workbook reader alone on the same bytes in the same run.
 */
export function workbookBench(ctx: BenchContext): Promise<Figure[]> {
  const rows = ctx.quick ? 20_000 : 100_000
  const bench = `workbook ${rows.toLocaleString('en-US')}`
  return inBrowser(ctx, async (page, failed) => {
    try {
      ctx.log(`${bench}: writing the workbook`)
      const name = await writeWorkbook(rows)
      const { bytes } = await call(page, 'fetchFile', name, 'trade fair.xlsx')
      ctx.log(`${bench}: ${(bytes / 1e6).toFixed(1)} MB; through the import dialog`)
      const rss = await sampleRendererRss(page)
      const ui = await workbookThroughUi(page)
      const peak = rss.stop()
      await call(page, 'deleteList', ui.listId)
      // After the dialog, so that the reader's garbage on the page does not count in its memory.
      ctx.log(`${bench}: raw read-excel-file`)
      const raw = await call(page, 'rawReadExcel')
      const rawRate = perSecond(rows, raw.ms)
      const uiRate = perSecond(rows, ui.review.ms)
      return [
        figure(
          bench,
          'drop → sheet previewed, ms',
          ui.preview.ms,
          'ms',
          undefined,
          `the workbook read in its worker, the list's sheet found behind a "Read me" (${ui.sheet}) and turned into CSV; ${(bytes / 1e6).toFixed(1)} MB`,
        ),
        figure(
          bench,
          'drop → rows read and checked, rows/s',
          uiRate,
          'rows/s',
          undefined,
          `drop → review shown: ${(ui.review.ms / 1000).toFixed(1)} s (preview ${(ui.preview.ms / 1000).toFixed(1)} s, then the import worker)`,
        ),
        figure(
          bench,
          'raw read-excel-file, rows/s',
          rawRate,
          'rows/s',
          undefined,
          `the reader alone on the same bytes, every sheet, on the page thread: ${(raw.ms / 1000).toFixed(1)} s`,
        ),
        figure(bench, 'through the dialog / raw reader', uiRate / rawRate, '×'),
        figure(
          bench,
          'longest main-thread task, drop → preview',
          ui.preview.longestTaskMs,
          'ms',
          { max: 100 },
          `${ui.preview.longTasks} tasks over 50 ms: the dialog opening and the preview's first render, whatever the size; the workbook is read in a worker`,
        ),
        figure(
          bench,
          'longest main-thread task, rows read and stored',
          ui.review.longestTaskMs,
          'ms',
          { max: 100 },
          `${ui.review.longTasks} tasks over 50 ms, from "Read all rows" to the review`,
        ),
        figure(
          bench,
          'peak renderer RSS (dialog)',
          peak.app / 2 ** 20,
          'MB',
          { max: 1024 },
          `the page's renderer process: page, workbook and import workers (with Chromium's own renderers ${(peak.all / 2 ** 20).toFixed(0)} MB)`,
        ),
      ]
    } catch (error) {
      return [failed(bench, error)]
    }
  })
}
