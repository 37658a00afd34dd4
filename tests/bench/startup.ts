import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { buildApp, buildDir, launchChromium, startWebHost } from './browser'
import type { Page } from 'playwright-core'
import type { BenchContext } from './context'
import type { Figure } from './figures'
import { figure } from './figures'

const gzipped = (file: string): number => gzipSync(readFileSync(file), { level: 9 }).length

function folderSizes(dir: string): { raw: number; gzip: number } {
  let raw = 0
  let gzip = 0
  for (const name of readdirSync(dir)) {
    const file = join(dir, name)
    if (!statSync(file).isFile()) continue
    raw += statSync(file).size
    gzip += gzipped(file)
  }
  return { raw, gzip }
}

/** Relative static imports of a built ES module (`import … from "./x.js"`, `import "./x.js"`); dynamic ones excluded. */
function staticImports(code: string): string[] {
  const found = new Set<string>()
  for (const match of code.matchAll(
    /(?:^|[;\s}])import\s*(?:[\w*{}\s,$]+from\s*)?["'](\.\.?\/[^"']+)["']/g,
  )) {
    found.add(match[1]!)
  }
  for (const match of code.matchAll(/(?:^|[;\s}])export\s*[\w*{}\s,$]*from\s*["'](\.\.?\/[^"']+)["']/g)) {
    found.add(match[1]!)
  }
  return [...found]
}

/**
 * The JavaScript a first paint needs: the entry script of index.html, its modulepreloads, and every
 * chunk they import statically; lazy routes are not part of it.
 */
export function initialChunks(rendererDir: string): string[] {
  const html = readFileSync(join(rendererDir, 'index.html'), 'utf8')
  const queue = [
    ...html.matchAll(/<script[^>]+src="([^"]+\.js)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+\.js)"/g),
  ].map((match) => join(rendererDir, match[1] ?? match[2]!))
  const seen = new Set<string>()
  while (queue.length) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    for (const spec of staticImports(readFileSync(file, 'utf8'))) queue.push(join(file, '..', spec))
  }
  return [...seen]
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length / 2
  return sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** How long after the shell is interactive its start's tasks are watched: its idle work is done by then. */
const afterStartMs = 5_000

/**
 * The raw baseline of a cold start: a page of one link in the sidebar's place and nothing else,
 * served by the same host, in a fresh context as the app is. What a new tab takes to draw anything.
 */
const staticPage = 'bench-static.html'
const staticHtml =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>Leadkeeper</title></head>' +
  '<body><nav data-test="sidebar"><a href="#/">Start</a></nav></body></html>'

/** The page's tasks over 50 ms, each as [its start in ms since the navigation, its duration]. */
type LongTasks = [number, number][]

async function timeToShell(
  ctx: BenchContext,
  runs: number,
): Promise<{
  cold: number[]
  warm: number[]
  afterStart: LongTasks[]
  startPage: number[]
  staticCold: number[]
}> {
  const host = await startWebHost()
  const browser = await launchChromium()
  const cold: number[] = []
  const staticCold: number[] = []
  const startPage: number[] = []
  const warm: number[] = []
  const afterStart: LongTasks[] = []
  try {
    for (let i = 0; i < runs; i++) {
      // The raw baseline in a fresh context of its own, before the app's run and after it in
      // turn: the browser keeps a renderer process ready, which the first of two new tabs takes.
      const baseline = async () => {
        const bare = await browser.newContext({ viewport: { width: 1280, height: 800 } })
        const barePage = await bare.newPage()
        await barePage.goto(host.url.replace('/?', `/${staticPage}?`), { waitUntil: 'commit' })
        staticCold.push(await sidebarDrawn(barePage))
        await bare.close()
      }
      if (i % 2 === 0) await baseline()
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
      // Every task of the page over 50 ms from its navigation on.
      await context.addInitScript(() => {
        const tasks: [number, number][] = []
        ;(globalThis as unknown as { longTasks: typeof tasks }).longTasks = tasks
        // 'longtask' is a browser's entry type, which Node's types of the observer do not list.
        const options = { type: 'longtask', buffered: true } as unknown as { type: 'mark' }
        new PerformanceObserver((list) => {
          for (const task of list.getEntries()) tasks.push([task.startTime, task.duration])
        }).observe(options)
      })
      const page = await context.newPage()
      const ready = () => sidebarDrawn(page)
      await page.goto(host.url, { waitUntil: 'commit' })
      const interactive = await ready()
      cold.push(interactive)
      // The start page drawn: its account card, what a user reads first beside the drop zone.
      startPage.push(
        await page
          .waitForFunction(
            () =>
              (
                globalThis as unknown as { document: { querySelector(s: string): unknown } }
              ).document.querySelector('[data-test="home-account"]') !== null && performance.now(),
            undefined,
            { polling: 'raf', timeout: 30_000 },
          )
          .then((handle) => handle.jsonValue() as Promise<number>),
      )
      // The start's work after the shell shows (the first page, the idle warm-ups and prefetches).
      await page.waitForTimeout(afterStartMs)
      const tasks = await page.evaluate(
        () => (globalThis as unknown as { longTasks: [number, number][] }).longTasks,
      )
      afterStart.push(tasks.filter(([start]) => start >= interactive))
      await page.reload({ waitUntil: 'commit' })
      warm.push(await ready())
      await context.close()
      if (i % 2 === 1) await baseline()
    }
    ctx.log(
      `startup: static page cold ${staticCold.map((ms) => ms.toFixed(0)).join(', ')} ms; cold ${cold.map((ms) => ms.toFixed(0)).join(', ')} ms; warm ${warm.map((ms) => ms.toFixed(0)).join(', ')} ms`,
    )
  } finally {
    await browser.close()
    await host.close()
  }
  return { cold, warm, afterStart, startPage, staticCold }
}

/** When the page first has a sidebar with a link, in ms since its navigation, checked at each frame. */
function sidebarDrawn(page: Page): Promise<number> {
  return page
    .waitForFunction(
      () => {
        type Node = {
          querySelector(s: string): Node | null
          querySelectorAll(s: string): { length: number }
        }
        const menu = (globalThis as unknown as { document: Node }).document.querySelector(
          '[data-test="sidebar"]',
        )
        return menu && menu.querySelectorAll('a').length > 0 && performance.now()
      },
      undefined,
      { polling: 'raf', timeout: 30_000 },
    )
    .then((handle) => handle.jsonValue() as Promise<number>)
}

const longest = (tasks: LongTasks): number => Math.max(0, ...tasks.map(([, duration]) => duration))

export async function startupBench(ctx: BenchContext): Promise<Figure[]> {
  ctx.log('startup: building')
  await buildApp()
  const rendererDir = join(buildDir, 'renderer')
  const initial = initialChunks(rendererDir)
  const initialGzip = initial.reduce((sum, file) => sum + gzipped(file), 0)
  const initialRaw = initial.reduce((sum, file) => sum + statSync(file).size, 0)
  const allJs = readdirSync(join(rendererDir, 'assets')).filter((name) => name.endsWith('.js'))
  const main = folderSizes(join(buildDir, 'main'))
  const preload = folderSizes(join(buildDir, 'preload'))
  writeFileSync(join(rendererDir, staticPage), staticHtml)
  const times = await timeToShell(ctx, ctx.quick ? 2 : 6)
  const kb = (bytes: number) => bytes / 1000
  return [
    figure(
      'startup',
      'shell interactive, cold (median)',
      median(times.cold),
      'ms',
      { max: 500 },
      `navigation start → sidebar menu rendered, fresh profile, built assets via the web host; runs: ${times.cold.map((ms) => ms.toFixed(0)).join(', ')}; raw baseline ${median(times.staticCold).toFixed(0)} ms`,
    ),
    figure(
      'startup',
      'raw: a static page drawn, cold (median)',
      median(times.staticCold),
      'ms',
      undefined,
      `a page of one link in the sidebar's place and nothing else, from the same host, each in a fresh context before or after the app's in turn: what a new tab takes to draw anything; runs: ${times.staticCold.map((ms) => ms.toFixed(0)).join(', ')}`,
    ),
    figure(
      'startup',
      'start page drawn, cold (median)',
      median(times.startPage),
      'ms',
      undefined,
      `navigation start → the start page's account card in the page, the same cold starts; runs: ${times.startPage.map((ms) => ms.toFixed(0)).join(', ')}`,
    ),
    figure(
      'startup',
      'shell interactive, reload (median)',
      median(times.warm),
      'ms',
      { max: 800 },
      'same, HTTP cache warm',
    ),
    figure(
      'startup',
      'longest page task after interactive (median)',
      median(times.afterStart.map(longest)),
      'ms',
      { max: 50 },
      `the cold starts' page tasks in the ${afterStartMs / 1000} s after the sidebar is rendered (the first page, the idle warm-ups and prefetches), the longest of each run: ${times.afterStart.map((tasks) => `${longest(tasks).toFixed(0)} (${tasks.length} over 50 ms)`).join(', ')}`,
    ),
    figure(
      'bundle',
      'renderer initial JS (gzip -9)',
      kb(initialGzip),
      'kB',
      { max: 300 },
      `${initial.length} chunks, ${kb(initialRaw).toFixed(0)} kB raw; all renderer JS: ${allJs.length} chunks`,
    ),
    figure('bundle', 'main (gzip -9)', kb(main.gzip), 'kB', undefined, `${kb(main.raw).toFixed(0)} kB raw`),
    figure(
      'bundle',
      'preload (gzip -9)',
      kb(preload.gzip),
      'kB',
      undefined,
      `${kb(preload.raw).toFixed(1)} kB raw`,
    ),
  ]
}
