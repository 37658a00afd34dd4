import type { BrowserContext, Page } from '@playwright/test'
import { build } from 'esbuild'
import type { SourceAnswer, SourceRequest } from '../../../electron/shared/origin-move'

let bundle: Promise<string> | null = null

/** src/origin-move, bundled for a page (tests/e2e/support/origin-move-entry.ts). */
function moverScript(): Promise<string> {
  bundle ??= build({
    entryPoints: ['tests/e2e/support/origin-move-entry.ts'],
    bundle: true,
    format: 'iife',
    target: 'chrome120',
    write: false,
  }).then((result) => result.outputFiles[0]!.text)
  return bundle
}

/**
 * A page of the web host's origin that is not the app (one of its script files, as `seedDatabase`
 * uses), with the move's code loaded: nothing of the app opens the database there meanwhile.
 */
export async function openMoverPage(page: Page, origin: string): Promise<void> {
  // The app's page is read, not loaded: the app would open its database on this origin.
  const html = await (await page.request.get(`${origin}/`)).text()
  const script = /<script[^>]*type="module"[^>]*src="([^"]+)"/.exec(html)?.[1]
  if (!script) throw new Error(`No module script in the app's page at ${origin}`)
  await page.goto(new URL(script, `${origin}/`).href)
  await page.evaluate(await moverScript())
}

/**
 * Admits a page of `origin` to the web host with the run's token (what its address does, without
 * first loading the app there), so the destination origin holds nothing before the move.
 */
export async function admit(context: BrowserContext, url: string, origin: string): Promise<void> {
  const token = new URL(url).searchParams.get('token')!
  const port = new URL(origin).port
  await context.addCookies([
    { name: `leadkeeper_${port}`, value: token, domain: new URL(origin).hostname, path: '/' },
  ])
}

export interface MoveRun {
  counts: Record<string, Record<string, number>>
  progress: Array<{ done: number; total: number }>
}

/**
 * Runs the app's mover in `target`, reading from `source` through this test: each request of the
 * mover crosses to the source page and its answer back (Playwright carries typed arrays, Dates and
 * nested keys as structured values, as Electron's IPC does). `cutAfter` makes the source stop
 * answering once it has answered a page of that store, as a crash of the window or of the app would.
 */
export async function moveThroughTest(
  target: Page,
  source: Page,
  options: { cutAfter?: string } = {},
): Promise<MoveRun> {
  let cut = false
  const read = async (request: SourceRequest): Promise<SourceAnswer> => {
    if (cut) return { ok: false, message: 'The window was closed.' }
    if (request.kind === 'page' && request.store === options.cutAfter) cut = true
    return source.evaluate((asked) => window.originMove.answer(asked), request)
  }
  // A page's bindings outlive its reloads and cannot be made twice: one per page, reading through the latest run.
  if (!relays.has(target))
    await target.exposeFunction('readOldOrigin', (request: SourceRequest) => relays.get(target)!(request))
  relays.set(target, read)
  return target.evaluate(() => window.originMove.move(window.readOldOrigin))
}

const relays = new WeakMap<Page, (request: SourceRequest) => Promise<SourceAnswer>>()
