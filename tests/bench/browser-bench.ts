import { createWriteStream, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { buildApp, launchWithProfile, sampleRendererRss, startWebHost, type RendererPeak } from './browser'
import type { BenchContext } from './context'
import type { Figure } from './figures'
import { figure } from './figures'
import { columns, rowValues, startOver, type PageKit } from './page/kit'

type Kit = PageKit

/** Calls one method of the page kit (tests/bench/page/kit.ts) inside the page. */
export function call<K extends keyof Kit>(
  page: Page,
  name: K,
  ...args: Parameters<Extract<Kit[K], (...a: never[]) => unknown>>
): Promise<Awaited<ReturnType<Extract<Kit[K], (...a: never[]) => unknown>>>> {
  return page.evaluate(
    ([method, params]) => {
      const kit = (globalThis as unknown as { lkBench: Record<string, (...a: unknown[]) => unknown> }).lkBench
      return kit[method]!(...params)
    },
    [name, args] as [string, unknown[]],
  ) as never
}

const mb = (bytes: number) => bytes / 2 ** 20

/** Where the median of these values is (the middle one of an odd count). */
function medianAt(values: number[]): number {
  const order = values.map((_, at) => at).sort((a, b) => values[a]! - values[b]!)
  return order[Math.floor(order.length / 2)]!
}

/** An import timed `runs` times, its list deleted after each: every run, in order, and the renderer's highest peak. */
async function importRuns<T extends { ms: number; listId: string }>(
  ctx: BenchContext,
  page: Page,
  what: string,
  runs: number,
  once: () => Promise<T>,
): Promise<{ all: T[]; median: T; peak: RendererPeak }> {
  const all: T[] = []
  const peak: RendererPeak = { app: 0, all: 0 }
  for (let run = 0; run < runs; run++) {
    ctx.log(`${what} (${run + 1} of ${runs})`)
    const rss = await sampleRendererRss(page)
    try {
      all.push(await once())
    } finally {
      const { app, all: everyRenderer } = rss.stop()
      peak.app = Math.max(peak.app, app)
      peak.all = Math.max(peak.all, everyRenderer)
    }
    await call(page, 'deleteList', all.at(-1)!.listId)
  }
  return { all, median: all[medianAt(all.map((one) => one.ms))]!, peak }
}
const perSecond = (rows: number, ms: number) => Math.round(rows / (ms / 1000))

interface ImportFigures {
  size: number
  figures: Figure[]
  gridListId: string
}

/** The import dialog driven as a user does: drop, next, import; timed from the click on "import" to the review. */
async function importThroughUi(page: Page): Promise<{
  ms: number
  longestTaskMs: number
  longTasks: number
  peakHeapMb: number | null
  finishMs: number
  listId: string
}> {
  await page.evaluate(
    () => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/lists'),
  )
  await page.locator('[data-test="sidebar"]').waitFor()
  await call(page, 'dropCsv')
  await page.locator('[data-test="import-preview"]').waitFor({ timeout: 120_000 })
  await page.locator('[data-test="import-next"]').click()
  await call(page, 'armImportClock', '[data-test="import-start"]')
  await page.locator('[data-test="import-start"]').click()
  const measured = await call(page, 'awaitImportEnd', '[data-test="import-review"]')
  const finishStarted = Date.now()
  await page.locator('[data-test="import-finish"]').click()
  await page.waitForURL(/#\/lists\/[0-9a-f-]{36}$/, { timeout: 300_000 })
  await page.locator('[data-test="grid"] .row:not(.pending)').first().waitFor({ timeout: 300_000 })
  const finishMs = Date.now() - finishStarted
  const listId = /#\/lists\/([0-9a-f-]{36})$/.exec(page.url())![1]!
  return { ...measured, finishMs, listId }
}

const fileInputId = 'lk-bench-file'

/**
 * The bench's CSV of `rows` rows (the same columns and values as every browser bench), written to
 * disk by Node: the page then opens it as a user's dropped file, read from the disk as it goes.
 */
async function writeCsv(rows: number): Promise<string> {
  const path = join(tmpdir(), `lk-bench-${process.pid}-${rows}.csv`)
  const out = createWriteStream(path)
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((drained) => out.once('drain', drained))
  await write(columns.join(',') + '\n')
  let chunk: string[] = []
  for (let i = 0; i < rows; i++) {
    chunk.push(rowValues(i).join(','))
    if (chunk.length === 10_000 || i === rows - 1) {
      await write(chunk.join('\n') + '\n')
      chunk = []
    }
  }
  await new Promise<void>((done, fail) => out.end((error?: Error | null) => (error ? fail(error) : done())))
  return path
}

/** Chooses `path` in a file input of the page's own (added once), as a user picking a file. */
async function chooseFile(page: Page, path: string): Promise<void> {
  await page.evaluate((id) => {
    const doc = (
      globalThis as unknown as {
        document: {
          getElementById(id: string): unknown
          body: { insertAdjacentHTML(where: string, html: string): void }
        }
      }
    ).document
    if (!doc.getElementById(id))
      doc.body.insertAdjacentHTML('beforeend', `<input type="file" id="${id}" hidden>`)
  }, fileInputId)
  await page.setInputFiles(`#${fileInputId}`, path)
}

async function importBench(
  ctx: BenchContext,
  page: Page,
  rows: number,
  options: { keepGridList: boolean; throughDialog: boolean },
): Promise<ImportFigures> {
  const bench = `import ${rows.toLocaleString('en-US')}`
  const file = await writeCsv(rows)
  await chooseFile(page, file)
  const { bytes } = await call(page, 'takeChosenFile', `#${fileInputId}`)
  ctx.log(`${bench}: ${(bytes / 1e6).toFixed(0)} MB generated`)
  const figures: Figure[] = []

  // A run of about a second is at the mercy of whatever else the machine does: up to 100k rows, each
  // way is timed three times (its list deleted between) and its figure is the median, every run in
  // the note; at a million, one run of ten seconds or more.
  const runs = rows <= 100_000 ? 3 : 1
  const ofRuns = runs > 1 ? `, the highest of ${runs} runs, one after another` : ''
  const inOrder = (values: number[], unit: string) =>
    values.length > 1
      ? ` (median of ${values.length}; ${values.map((v) => v.toFixed(1)).join(', ')} ${unit} in the order run)`
      : ''

  if (options.throughDialog) {
    try {
      const dialog = await importRuns(ctx, page, `${bench}: through the import dialog`, runs, () =>
        importThroughUi(page),
      )
      const { all: uiRuns, median: ui, peak: uiRss } = dialog
      const longest = uiRuns.reduce((a, b) => (b.longestTaskMs > a.longestTaskMs ? b : a))
      const heaps = uiRuns.flatMap((one) => (one.peakHeapMb === null ? [] : [one.peakHeapMb]))
      figures.push(
        figure(
          bench,
          'end to end (dialog), rows/s',
          perSecond(rows, ui.ms),
          'rows/s',
          { min: 50_000 },
          `click "Import" → review shown: ${(ui.ms / 1000).toFixed(1)} s${inOrder(
            uiRuns.map((one) => one.ms / 1000),
            's',
          )}; then "Finish" → first grid rows ${(ui.finishMs / 1000).toFixed(1)} s${runs > 1 ? ' (in the median run)' : ''}`,
        ),
        figure(
          bench,
          'longest main-thread task (dialog)',
          longest.longestTaskMs,
          'ms',
          { max: 100 },
          `${longest.longTasks} tasks over 50 ms${runs > 1 ? `, in the run with the longest of ${runs}` : ''}`,
        ),
        figure(
          bench,
          'peak JS heap, page (dialog)',
          heaps.length > 0 ? Math.max(...heaps) : null,
          'MB',
          { max: 1024 },
          `performance.memory of the page${ofRuns}; the worker heap is in the RSS below`,
        ),
        figure(
          bench,
          'peak renderer RSS (dialog)',
          mb(uiRss.app),
          'MB',
          { max: 1024 },
          `the page's renderer process: page, import worker, IndexedDB buffers${ofRuns} (with Chromium's own renderers ${mb(uiRss.all).toFixed(0)} MB)`,
        ),
      )
    } catch (error) {
      ctx.log(
        `${bench}: the dialog could not be driven: ${error instanceof Error ? error.message : String(error)}`,
      )
      figures.push(
        figure(
          bench,
          'end to end (dialog), rows/s',
          null,
          'rows/s',
          { min: 50_000 },
          'the dialog could not be driven; see the pipeline figures',
        ),
      )
    }
  }

  const worker = await importRuns(ctx, page, `${bench}: import workers alone`, runs, () =>
    call(page, 'importPipeline'),
  )
  const { all: pipelineRuns, median: pipeline, peak: pipelineRss } = worker
  // The same import on the other count of workers than the app's choice here (`importWorkerCount`:
  // one on two cores, two, one checking for the other, on four or more): what a second thread brings.
  const chosen = await call(page, 'importWorkerCount')
  const other = chosen === 1 ? 2 : 1
  const single = await importRuns(ctx, page, `${bench}: on ${other} import worker(s)`, runs, () =>
    call(page, 'importPipeline', other),
  )
  const pipelineLongestTaskMs = Math.max(...pipelineRuns.map((one) => one.longestTaskMs))
  // The raw baselines after the app's own imports: parsing the whole CSV on the page thread leaves
  // memory the renderer process keeps, which would count in the imports' peak RSS.
  // As many times as the pipeline, its figure the median: one run of a fifth of a second says little.
  const papaRuns: { ms: number; rows: number }[] = []
  for (let run = 1; run <= runs; run++) {
    ctx.log(`${bench}: raw PapaParse${runs > 1 ? ` (${run} of ${runs})` : ''}`)
    papaRuns.push(await call(page, 'rawPapa'))
  }
  const papa = papaRuns[medianAt(papaRuns.map((one) => one.ms))]!
  // One record per row (the design before blocks) is ~5,000 rows/s: measured up to 100,000 rows only,
  // which keeps the full run inside its half hour.
  const perRow =
    rows <= 100_000 ? (ctx.log(`${bench}: raw row records`), await call(page, 'rawRowRecords', rows)) : null
  ctx.log(`${bench}: enriched rows through the block writer`)
  const enriched = await call(page, 'seedEnriched', rows)
  ctx.log(`${bench}: raw blocks of 1,000 rows`)
  const blocks = await call(page, 'rawBlocks', rows)
  const papaRate = perSecond(papa.rows, papa.ms)
  const blocksRate = perSecond(rows, blocks.ms)
  const pipelineRate = perSecond(pipeline.rows, pipeline.ms)
  figures.push(
    figure(
      bench,
      'pipeline (worker, no dialog), rows/s',
      pipelineRate,
      'rows/s',
      { min: 50_000 },
      `parse + check + store in the import ${chosen === 1 ? "worker (the app's choice on this computer)" : "workers, one checking for the other (the app's choice on this computer)"}, made a second before as the dialog makes them while its preview shows, ${(pipeline.ms / 1000).toFixed(1)} s${inOrder(
        pipelineRuns.map((one) => one.ms / 1000),
        's',
      )}; peak renderer RSS ${mb(pipelineRss.app).toFixed(0)} MB (${mb(pipelineRss.all).toFixed(0)} with Chromium's own)${ofRuns}; longest task ${pipelineLongestTaskMs.toFixed(0)} ms${runs > 1 ? ` (the longest of ${runs})` : ''}`,
    ),
    figure(
      bench,
      `pipeline on ${other === 1 ? 'one worker' : 'two workers'}, rows/s`,
      perSecond(single.median.rows, single.median.ms),
      'rows/s',
      undefined,
      `the same on ${other === 1 ? 'one worker, checking the rows itself' : 'two workers, one parsing and checking, the other parsing and storing'}, run after it: ${(single.median.ms / 1000).toFixed(1)} s${inOrder(
        single.all.map((one) => one.ms / 1000),
        's',
      )}; peak renderer RSS ${mb(single.peak.app).toFixed(0)} MB`,
    ),
    figure(
      bench,
      'raw PapaParse, rows/s',
      papaRate,
      'rows/s',
      undefined,
      `same bytes, streamed from the same File on the page thread: ${(papa.ms / 1000).toFixed(2)} s${inOrder(
        papaRuns.map((one) => one.ms / 1000),
        's',
      )}`,
    ),
    figure(
      bench,
      'raw blocks of 1,000 rows, rows/s',
      blocksRate,
      'rows/s',
      undefined,
      `the same rows, 1,000 to a record, plain IndexedDB put, no index: ${(blocks.ms / 1000).toFixed(1)} s`,
    ),
    figure(bench, 'pipeline / raw PapaParse', pipelineRate / papaRate, '×', { min: 1 / 3 }),
    figure(
      bench,
      'results written (block writer), rows/s',
      perSecond(rows, enriched.ms),
      'rows/s',
      undefined,
      `rows with statuses and facet values through putRows (blocks, facet columns, revisions), batches of 10,000: ${(enriched.ms / 1000).toFixed(1)} s`,
    ),
  )
  if (perRow) {
    figures.push(
      figure(
        bench,
        'raw row records (the design before), rows/s',
        perSecond(rows, perRow.ms),
        'rows/s',
        undefined,
        `the same rows one IndexedDB record each, plain put: ${(perRow.ms / 1000).toFixed(1)} s; pipeline is ${(pipelineRate / perSecond(rows, perRow.ms)).toFixed(1)}× this`,
      ),
    )
  }
  if (!options.keepGridList) await call(page, 'deleteList', enriched.listId)
  rmSync(file, { force: true })
  return { size: rows, figures, gridListId: enriched.listId }
}

interface ExportRun {
  rows: number
  ms: number
  bytes: number
  workers: number
  peak: RendererPeak
}

/** The list exported to CSV by `workers` workers (as the app does, if not given), its file checked. */
async function timedExport(page: Page, listId: string, workers?: number): Promise<ExportRun> {
  const rss = await sampleRendererRss(page)
  const run = await call(page, 'exportCsv', listId, workers)
  const peak = rss.stop()
  await call(page, 'checkExport')
  return { ...run, peak }
}

/** Runs of one way of exporting: their mean rate, each rate, and the higher peak of memory. */
function meanExport(runs: ExportRun[]) {
  const rates = runs.map((run) => perSecond(run.rows, run.ms))
  return {
    rate: rates.reduce((sum, rate) => sum + rate, 0) / rates.length,
    rates: rates.map((rate) => `${Math.round(rate).toLocaleString('en-US')} rows/s`).join(', '),
    bytes: runs[0]!.bytes,
    workers: runs[0]!.workers,
    peak: runs.reduce((high, run) => (run.peak.app > high.app ? run.peak : high), runs[0]!.peak),
  }
}

/** How precisely the page read its frames' times. */
const frameClock = (isolated: boolean): string =>
  isolated
    ? 'frame times to 5 µs (the page cross-origin isolated)'
    : 'frame times coarsened to 0.1 ms (the page not cross-origin isolated): an on-time frame reads 16.6–16.8 ms'

/** Issue 12: the first rows of a million-row list in 150 ms, every opening. */
const firstRowsTarget = { max: 150 }

async function gridBench(ctx: BenchContext, page: Page, listId: string, rows: number): Promise<Figure[]> {
  const bench = `grid ${rows.toLocaleString('en-US')}`
  ctx.log(`${bench}: open, scroll, filter`)
  const opened: number[] = []
  for (let i = 0; i < 3; i++) {
    const { ms } = await call(page, 'openList', listId)
    if (ms === null) {
      return [
        figure(
          bench,
          'time to first rows',
          null,
          'ms',
          firstRowsTarget,
          'no filled grid row within 120 s; scroll and filter not measured',
        ),
      ]
    }
    opened.push(ms)
  }
  const steady = await call(page, 'scrollGrid', 300, 600)
  const fast = await call(page, 'scrollGrid', 120, 20_000)
  const filterUi = await call(page, 'uiFilter', listId)
  // The app's export (two workers on two cores or more, each half the blocks) and the same by one
  // worker, alternated twice: a later export meets what the one before left in the caches, so each
  // way is timed once after the other (their mean is the figure) and its peak memory is the higher.
  const appRuns: ExportRun[] = []
  const singleRuns: ExportRun[] = []
  for (let round = 0; round < 2; round++) {
    appRuns.push(await timedExport(page, listId))
    singleRuns.push(await timedExport(page, listId, 1))
  }
  const exported = meanExport(appRuns)
  const single = meanExport(singleRuns)
  // The read alone after the export, so that the rows it leaves on the page's heap are not counted in
  // the export's memory.
  const read = await call(page, 'readAll', listId)
  // Last: the query worker's work run on the page thread to time it alone, a bench's own load.
  const filterQuery = await call(page, 'filterQuery', listId, 3)
  const figures = [
    figure(
      bench,
      'time to first rows',
      opened[medianAt(opened)]!,
      'ms',
      firstRowsTarget,
      `median of 3: route change → first filled grid row, in the order opened (${opened.map((ms) => ms.toFixed(0)).join(', ')} ms)`,
    ),
    figure(
      bench,
      'scroll p95 frame',
      steady.p95,
      'ms',
      { max: 16.7 },
      `600 px/frame for ${steady.frames} frames; p50 ${steady.p50.toFixed(2)}, max ${steady.max.toFixed(0)} ms; ${steady.missed} frames missed (as long as two display frames or more), ${steady.missedEarly} of them in the first 60; ${steady.blankFrames} frames with unfilled rows; ${frameClock(steady.isolated)}`,
    ),
    figure(
      bench,
      'scroll frames missed',
      (100 * steady.missed) / steady.frames,
      '%',
      { max: 5 },
      `${steady.missed} of ${steady.frames} frames as long as two display frames or more: the p95 is one display frame when at most 5 % are`,
    ),
    figure(
      bench,
      'fast scroll p95 frame',
      fast.p95,
      'ms',
      { max: 16.7 },
      `20,000 px/frame; p50 ${fast.p50.toFixed(2)}, max ${fast.max.toFixed(0)} ms; ${fast.missed}/${fast.frames} frames missed; ${fast.blankFrames}/${fast.frames} frames with unfilled rows`,
    ),
    figure(
      bench,
      'filter by email status (UI)',
      filterUi.ms,
      'ms',
      { max: 300 },
      `after the scrolls: the pointer into the filters (which has the list's columns read), a second later the results store's setFilter → count and rows shown (${filterUi.text})`,
    ),
    figure(
      bench,
      'filter by email status (query, after a start)',
      filterQuery.coldMs,
      'ms',
      { max: 300 },
      `the query worker's work on the page, a new instance, as after a start: the list's stored facet columns read (but the company's, read only by a query by company), the view counted (${filterQuery.matching.toLocaleString('en-US')} matching) and its first 100 rows read; median of 3 (storing those columns took ${Math.round(filterQuery.saveMs)} ms)`,
    ),
    figure(
      bench,
      'filter by email status (query, columns never read)',
      filterQuery.neverMs,
      'ms',
      undefined,
      "the same with no stored columns (a list's very first filter, before the worker read its columns ahead): every block's facet record read; median of 3",
    ),
    figure(
      bench,
      'filter by company (query, after a start)',
      filterQuery.companyColdMs,
      'ms',
      undefined,
      `the same as a first filter by company after a start: the stored facet columns, the company's a million names (${filterQuery.companyMatching.toLocaleString('en-US')} matching); median of 3 (storing the company's column took ${Math.round(filterQuery.companySaveMs)} ms)`,
    ),
    figure(
      bench,
      'filter by company (query, columns never read)',
      filterQuery.companyNeverMs,
      'ms',
      undefined,
      "the same with no stored columns: every block's facet and company records read; median of 3",
    ),
    figure(
      bench,
      'filter by email status (query, warm)',
      filterQuery.warmMs,
      'ms',
      { max: 300 },
      'the same instance, a second filter: columns kept, view and first 100 rows; median of 3',
    ),
    figure(
      bench,
      'export to CSV, rows/s',
      exported.rate,
      'rows/s',
      { min: 100_000 },
      `the app's export (${exported.workers} workers, each a share of the blocks), every row once and in order, ${(exported.bytes / 1e6).toFixed(0)} MB; the mean of two runs alternated with one worker's (${exported.rates}); the same blocks read on the page alone: ${(read.ms / 1000).toFixed(1)} s (${perSecond(read.rows, read.ms).toLocaleString('en-US', { maximumFractionDigits: 0 })} rows/s)`,
    ),
    figure(
      bench,
      'peak renderer RSS (export)',
      mb(exported.peak.app),
      'MB',
      { max: 1024 },
      `the page's renderer process during the app's export, the higher of its two runs, with its workers (query, library, export); with Chromium's own renderers ${mb(exported.peak.all).toFixed(0)} MB`,
    ),
    figure(
      bench,
      'export to CSV by one worker, rows/s',
      single.rate,
      'rows/s',
      undefined,
      `the same blocks by one worker, every row once and in order; the mean of its two runs (${single.rates}); peak renderer RSS ${mb(single.peak.app).toFixed(0)} MB (${mb(single.peak.all).toFixed(0)} with Chromium's own)`,
    ),
  ]
  return figures
}

/** When the library's writes began, as the figure's note says it. */
function startedNote({ atMs, settled }: { atMs: number; settled: boolean }): string {
  const { afterMs, quietMs, capMs } = startOver
  const when = `${(atMs / 1000).toFixed(1)} s after it`
  return settled
    ? `begun once the app's start was over (${afterMs / 1000} s after it at the earliest, and no page task over 50 ms for ${quietMs / 1000} s): ${when}`
    : `begun ${when}, the app's start not over after ${capMs / 1000} s of waiting (a page task over 50 ms within ${quietMs / 1000} s all along)`
}

async function libraryFigures(
  ctx: BenchContext,
  page: Page,
  contacts: number,
  perRecord: boolean,
): Promise<Figure[]> {
  const figures: Figure[] = []
  const library = `library ${contacts.toLocaleString('en-US')}`
  ctx.log(`${library}: seeding contacts`)
  const rss = await sampleRendererRss(page)
  const seeded = await call(page, 'seedContacts', contacts)
  const writingRss = rss.stop()
  figures.push(
    figure(
      library,
      "write contacts (the app's ingest), rows/s",
      perSecond(contacts, seeded.ms),
      'rows/s',
      { min: 20_000 },
      `upsertContacts in the library worker, called from the page in batches of 10,000 service payloads (look-ups, merge, words, kept counts): ${(seeded.ms / 1000).toFixed(1)} s; ${startedNote(seeded.started)}`,
    ),
  )
  figures.push(
    figure(
      library,
      'longest main-thread task while writing',
      seeded.longestTaskMs,
      'ms',
      { max: 50 },
      `${seeded.longTasks} tasks over 50 ms in ${Math.ceil(contacts / 10_000)} batches of 10,000 payloads`,
    ),
  )
  if (seeded.heapMb !== null)
    figures.push(
      figure(
        library,
        'page JS heap after the writes',
        seeded.heapMb,
        'MB',
        undefined,
        "performance.memory after the writes and a GC: the page's own; the people's index (ids, identities, words, answers, facet codes, key hashes) is in the library worker, counted in the RSS below",
      ),
    )
  figures.push(
    figure(
      library,
      'peak renderer RSS while writing',
      mb(writingRss.app),
      'MB',
      undefined,
      `the page's renderer process: the page, the library worker with its index, IndexedDB buffers (with Chromium's own renderers ${mb(writingRss.all).toFixed(0)} MB)`,
    ),
  )
  const searches: [string, { prefix?: string; facets?: Record<string, string[]> }][] = [
    ['prefix "m"', { prefix: 'm' }],
    ['prefix "mar"', { prefix: 'mar' }],
    ['prefix "maria.garcia1"', { prefix: 'maria.garcia1' }],
    ['prefix "company42"', { prefix: 'company42' }],
    ['last name "brown"', { prefix: 'brown' }],
    ['"zoe" (spelt Zoë)', { prefix: 'zoe' }],
    ['"zoë"', { prefix: 'zoë' }],
    ['country Norway', { facets: { country: ['Norway'] } }],
  ]
  for (const [name, search] of searches) {
    const runs = 3
    const result = await call(page, 'librarySearch', search, runs)
    const shown = `${result.shown} shown${result.exact ? ', all of them' : ''}`
    figures.push(
      figure(
        library,
        `${name}: first page`,
        result.firstMs,
        'ms',
        { max: 50 },
        `searchContacts, limit ${result.limit} (the page's first page), median of ${runs}: ${shown}`,
      ),
      figure(
        library,
        `${name}: every match`,
        result.allMs,
        'ms',
        undefined,
        `matchContactIds, median of ${runs}: ${result.total.toLocaleString('en-US')} matches (the exact count, and rows past the first page)`,
      ),
    )
  }
  // As after a start: the page loaded anew, so no index is in memory, then its first search.
  const harness = String(
    await page.evaluate(
      "[...document.scripts].find((script) => script.src.endsWith('/bench/harness.js')).src",
    ),
  )
  const afterStart = async (): Promise<void> => {
    await page.reload()
    await page.locator('[data-test="sidebar"]').waitFor()
    await page.addScriptTag({ url: harness })
    // The app's own work at its first idle moment (the query worker, the pages' code) done first.
    await page.waitForTimeout(2_000)
  }
  await afterStart()
  const cold = await call(page, 'libraryColdSearch', { prefix: 'brown' })
  figures.push(
    figure(
      library,
      'last name "brown": first page, index read from the store',
      cold.ms,
      'ms',
      { max: 50 },
      `searchContacts in a page loaded anew, as after a start (2 s after, the library worker started and read the newest people's keys): the index read from the newest key blocks until the page is found; longest page task ${Math.round(cold.longestTaskMs)} ms`,
    ),
  )
  const facets = await call(page, 'libraryFacetCounts')
  figures.push(
    figure(
      library,
      'facet counts',
      facets.ms,
      'ms',
      undefined,
      `contactFacetCounts: ${facets.values} values of three facets; the page shows them after the first rows`,
    ),
  )
  const searchedFacets: [string, { prefix?: string; facets?: Record<string, string[]> }][] = [
    ['prefix "m"', { prefix: 'm' }],
    ['last name "brown", country Norway', { prefix: 'brown', facets: { country: ['Norway'] } }],
  ]
  for (const [at, [name, search]] of searchedFacets.entries()) {
    const runs = 3
    const result = await call(page, 'librarySearchFacetCounts', search, runs)
    figures.push(
      figure(
        library,
        `facet counts of ${name}`,
        result.ms,
        'ms',
        { max: 200 },
        `contactFacetCounts in the library worker, median of ${runs} (${result.runs.map((ms) => ms.toFixed(0)).join(', ')} ms in turn${at === 0 ? ": the first reads the index whole, the page loaded anew, and makes its people's word starts" : ''}): every person checked, each facet counted with its own values left free (${result.counted.toLocaleString('en-US')} people by country, ${result.values} values); the page shows them once the matches are in`,
      ),
    )
  }
  // A first search's count and facets on the library's page, typed a second after it opened: as
  // before the page read the index ahead, then as it does (each after a start of its own).
  const typedMs = 1_000
  const firstCounts: { ahead: boolean; run: Awaited<ReturnType<PageKit['libraryFirstCount']>> }[] = []
  for (const ahead of [false, true]) {
    await afterStart()
    firstCounts.push({ ahead, run: await call(page, 'libraryFirstCount', { prefix: 'm' }, typedMs, ahead) })
  }
  for (const { ahead, run } of firstCounts)
    figures.push(
      figure(
        library,
        ahead
          ? 'prefix "m" after a start: count and facets, the index read ahead'
          : 'prefix "m" after a start: count and facets, nothing read ahead',
        run.ms,
        'ms',
        undefined,
        `a page loaded anew (2 s after, the library worker started and read the newest people's keys), the search asked ${typedMs.toLocaleString('en-US')} ms after the library's page opened: matchContactIds (${run.total.toLocaleString('en-US')} matches) then contactFacetCounts${
          ahead && run.aheadMs !== null
            ? `; the page's read ahead of the index, asked as it opened, ended ${Math.round(run.aheadMs).toLocaleString('en-US')} ms after`
            : ': the first to need the index whole reads it'
        }; longest page task ${Math.round(run.longestTaskMs)} ms`,
      ),
    )
  // The library exported as its page does it, then by one worker, alternated twice (as a list's
  // export is measured); the same people blocks read on the page alone as the raw baseline.
  ctx.log(`${library}: export to CSV`)
  const appExports: { ms: number; rows: number; bytes: number; workers: number }[] = []
  const singleExports: typeof appExports = []
  for (let round = 0; round < 2; round++) {
    appExports.push(await call(page, 'exportLibraryCsv', contacts))
    singleExports.push(await call(page, 'exportLibraryCsv', contacts, 1))
  }
  const rawRead = await call(page, 'readPeopleBlocks', contacts)
  const rateOf = (runs: typeof appExports) => runs.map((run) => perSecond(run.rows, run.ms))
  const mean = (rates: number[]) => rates.reduce((sum, rate) => sum + rate, 0) / rates.length
  const listed = (rates: number[]) => rates.map((rate) => `${rate.toLocaleString('en-US')} rows/s`).join(', ')
  figures.push(
    figure(
      library,
      'export every contact to CSV, rows/s',
      mean(rateOf(appExports)),
      'rows/s',
      contacts >= 1_000_000 ? { min: 100_000 } : undefined,
      `exportLibraryInWorkers as the library page does it (${appExports[0]!.workers} workers, each a share of the people blocks, newest first), every person once and in order, ${(appExports[0]!.bytes / 1e6).toFixed(0)} MB; the mean of two runs alternated with one worker's (${listed(rateOf(appExports))}); the raw baseline, every people block read on the page and nothing written: ${(rawRead.ms / 1000).toFixed(1)} s (${perSecond(rawRead.rows, rawRead.ms).toLocaleString('en-US')} rows/s)`,
    ),
    figure(
      library,
      'export every contact to CSV by one worker, rows/s',
      mean(rateOf(singleExports)),
      'rows/s',
      undefined,
      `the same by one worker; the mean of two runs (${listed(rateOf(singleExports))})`,
    ),
    figure(
      library,
      'raw: read every people block on the page, rows/s',
      perSecond(rawRead.rows, rawRead.ms),
      'rows/s',
      undefined,
      'bulkGet of ten blocks at a time, newest first, nothing decoded or written: what the export reads',
    ),
  )
  // Last: their writes keep the disk busy for a while after, which slowed the searches measured next.
  ctx.log(`${library}: the same contacts written raw`)
  const raw = await call(page, 'rawContactWrites', contacts, perRecord)
  if (perRecord)
    figures.push(
      figure(
        library,
        'raw: one record a contact, no index, rows/s',
        perSecond(contacts, raw.recordsMs),
        'rows/s',
        undefined,
        `the contacts the ingest makes, plain IndexedDB put, transactions of 10,000: ${(raw.recordsMs / 1000).toFixed(1)} s`,
      ),
      figure(
        library,
        'raw: a record holding one number a contact, rows/s',
        perSecond(contacts, raw.numbersMs),
        'rows/s',
        undefined,
        'the floor of one record per person: what a put costs whatever it holds',
      ),
    )
  figures.push(
    figure(
      library,
      'raw: contacts 1,000 to a record, rows/s',
      perSecond(contacts, raw.blocksMs),
      'rows/s',
      undefined,
      `the same contacts in blocks: ${(raw.blocksMs / 1000).toFixed(1)} s`,
    ),
  )
  return figures
}

/**
 * The app in a new page of the same profile, the page kit loaded, its first idle work done (the
 * query and library workers started); `page` is closed, and its renderer process with it.
 */
async function reopened(page: Page): Promise<Page> {
  const harness = String(
    await page.evaluate(
      "[...document.scripts].find((script) => script.src.endsWith('/bench/harness.js')).src",
    ),
  )
  // The app's own first page, as a start of the app shows it: not the page the benches left it on
  // (a list they deleted since), which would open that list's view as the app starts.
  const url = page.url().split('#')[0]!
  const fresh = await page.context().newPage()
  await page.close()
  fresh.setDefaultTimeout(600_000)
  await fresh.goto(url)
  await fresh.locator('[data-test="sidebar"]').waitFor()
  await fresh.addScriptTag({ url: harness })
  await fresh.waitForTimeout(2_000)
  return fresh
}

/** The built app in Chromium with a profile on disk, the page kit loaded; closed after `work`. */
export async function inBrowser(
  ctx: BenchContext,
  work: (page: Page, failed: (bench: string, error: unknown) => Figure) => Promise<Figure[]>,
): Promise<Figure[]> {
  ctx.log('browser: building')
  await buildApp()
  const host = await startWebHost()
  const browser = await launchWithProfile()
  try {
    const page = browser.context.pages()[0] ?? (await browser.context.newPage())
    page.setDefaultTimeout(600_000)
    await page.goto(host.url)
    await page.locator('[data-test="sidebar"]').waitFor()
    await page.addScriptTag({ url: `${host.origin}/bench/harness.js` })
    return await work(page, (bench, error) => {
      const message = error instanceof Error ? error.message.split('\n')[0]! : String(error)
      ctx.log(`${bench} could not finish: ${message}`)
      return figure(bench, 'could not finish', null, '', undefined, message)
    })
  } finally {
    await browser.close()
    await host.close()
  }
}

/** Import at 100k and 1M rows (20k with --quick), then the grid on the largest list. */
export function browserBench(ctx: BenchContext): Promise<Figure[]> {
  return inBrowser(ctx, async (page, failed) => {
    const sizes = ctx.quick ? [20_000] : [100_000, 1_000_000]
    const figures: Figure[] = []
    let grid: { listId: string; rows: number } | undefined
    for (const [i, size] of sizes.entries()) {
      const last = i === sizes.length - 1
      try {
        // Through the dialog up to 100k rows; at a million the worker alone, to keep the run within minutes.
        const result = await importBench(ctx, page, size, {
          keepGridList: last,
          throughDialog: size <= 100_000,
        })
        figures.push(...result.figures)
        if (last) grid = { listId: result.gridListId, rows: size }
      } catch (error) {
        figures.push(failed(`import ${size.toLocaleString('en-US')}`, error))
      }
    }
    if (grid) {
      try {
        // The grid and the export as after a start of the app: in a page of its own (a new renderer
        // process), not in the one that just generated and parsed the CSV on its own thread for the
        // raw baselines, whose freed memory the process keeps (its RSS was 620 MB before an export).
        const fresh = await reopened(page)
        figures.push(...(await gridBench(ctx, fresh, grid.listId, grid.rows)))
      } catch (error) {
        figures.push(failed(`grid ${grid.rows.toLocaleString('en-US')}`, error))
      }
    }
    return figures
  })
}

/**
 * The library written through the app's ingest, then searched: 100k and 1M people (20k with
 * --quick), each in a browser of its own. The raw writes of one record per person (the storage
 * before, minutes at a million) are measured at 100k only; the raw block write at every size.
 */
export async function libraryBench(ctx: BenchContext): Promise<Figure[]> {
  const sizes = ctx.quick ? [20_000] : [100_000, 1_000_000]
  const figures: Figure[] = []
  for (const contacts of sizes)
    figures.push(
      ...(await inBrowser(ctx, async (page, failed) => {
        try {
          return await libraryFigures(ctx, page, contacts, contacts <= 100_000)
        } catch (error) {
          return [failed(`library ${contacts.toLocaleString('en-US')}`, error)]
        }
      })),
    )
  return figures
}

/**
 * A company's page in a library of 1,000,000 people (20,000 with --quick), 10,000 of them (one in
 * a hundred) at one company: the page opened from another, as the app draws it, with the library
 * worker's index up to date and then after a start; what it asks of the worker; and beside them the
 * baseline, the library's own search by the domain's word, as a company's people were found before.
 */
export async function companyBench(ctx: BenchContext): Promise<Figure[]> {
  const contacts = ctx.quick ? 20_000 : 1_000_000
  const big = { domain: 'bigco.example', name: 'Big Co', every: 100 }
  const known = contacts / big.every
  const bench = `company ${known.toLocaleString('en-US')} of ${contacts.toLocaleString('en-US')}`
  const counted = `${known.toLocaleString('en-US')} people`
  return inBrowser(ctx, async (page, failed) => {
    try {
      ctx.log(`${bench}: seeding contacts`)
      await call(page, 'seedContacts', contacts, big)
      const figures: Figure[] = []
      const runs = 3
      const byDomain = await call(page, 'companyQueries', { domain: big.domain }, runs)
      const baseline = await call(page, 'companyQueries', { prefix: big.domain }, runs)
      // The page as the app draws it, in a page loaded anew as after a start (its library worker
      // holding the newest people's keys only), first, then opened again and again.
      const fresh = await reopened(page)
      const cold = await call(fresh, 'companyOpen', big.domain, counted, 1)
      const opened = await call(fresh, 'companyOpen', big.domain, counted, runs)
      figures.push(
        figure(
          bench,
          'company page: first people drawn',
          opened.firstRowsMs,
          'ms',
          undefined,
          `from another page of the app to the first rows of its people's grid (a first page of 40, found among the newest people), median of ${runs}`,
        ),
        figure(
          bench,
          'company page: every person found and counted',
          opened.countedMs,
          'ms',
          { max: 200 },
          `until its count reads "${counted}", median of ${runs} (${opened.runs.map((ms) => ms.toFixed(0)).join(', ')} ms); the facets within the company follow; longest page task ${Math.round(opened.longestTaskMs)} ms`,
        ),
        figure(
          bench,
          "the worker's calls for the page, by domain",
          byDomain.totalMs,
          'ms',
          undefined,
          `searchContacts ${byDomain.firstMs.toFixed(1)} ms, matchContactIds ${byDomain.allMs.toFixed(1)} ms (${byDomain.matches.toLocaleString('en-US')} people), contactFacetCounts ${byDomain.facetsMs.toFixed(1)} ms; medians of ${runs}: the people at the domain found by their slots (a pass over the domain column, kept until a block changes)`,
        ),
        figure(
          bench,
          "raw: the same by the library's search of the domain's word",
          baseline.totalMs,
          'ms',
          undefined,
          `the baseline, as a company's people were found before its page: prefix "${big.domain}", searchContacts ${baseline.firstMs.toFixed(1)} ms, matchContactIds ${baseline.allMs.toFixed(1)} ms (${baseline.matches.toLocaleString('en-US')} people), contactFacetCounts ${baseline.facetsMs.toFixed(1)} ms; medians of ${runs}`,
        ),
        figure(
          bench,
          'first company page after a start: first people drawn',
          cold.firstRowsMs,
          'ms',
          undefined,
          "a page loaded anew, 2 s after (the library worker started and read the newest people's keys): the first page from the newest key blocks",
        ),
        figure(
          bench,
          'first company page after a start: every person counted',
          cold.countedMs,
          'ms',
          undefined,
          `the same opening: the first call to need the library's whole index reads it (longest page task ${Math.round(cold.longestTaskMs)} ms)`,
        ),
      )
      return figures
    } catch (error) {
      return [failed(bench, error)]
    }
  })
}
