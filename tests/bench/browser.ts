import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { build } from 'esbuild'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'

/** One build folder per run, so that two runs at once never build over each other. */
export const buildDir = join(tmpdir(), `lk-bench-build-${process.pid}`)
const chromiumPath = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium'
const root = resolve(import.meta.dirname, '../..')

let built: Promise<void> | undefined

function run(command: string, args: string[]): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
    let stderr = ''
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()))
    child.on('error', fail)
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`${command} ${args.join(' ')}: ${stderr}`)),
    )
  })
}

/**
 * The production build of main, preload and renderer in a folder of the bench's own, plus the page
 * helpers under `renderer/bench/`; built once per run.
 */
export function buildApp(): Promise<void> {
  built ??= (async () => {
    rmSync(buildDir, { recursive: true, force: true })
    await run(process.execPath, [
      join(root, 'node_modules/electron-vite/bin/electron-vite.js'),
      'build',
      '--outDir',
      buildDir,
    ])
    await bundlePageHelpers(join(buildDir, 'renderer', 'bench'))
    process.once('exit', () => rmSync(buildDir, { recursive: true, force: true }))
  })()
  return built
}

const alias = {
  '@': join(root, 'src'),
  '@shared': join(root, 'electron/shared'),
  '@domain': join(root, 'electron/domain'),
}

/**
 * The app's own modules, unchanged, for the page: `globalThis.lk` exposes the database, the list
 * and row operations, a list's edits and history (`listOps`), the library search, PapaParse, the workbook reader and Dexie; `import-worker.js` is the import
 * workers' code as the app starts them.
 */
async function bundlePageHelpers(outDir: string): Promise<void> {
  const common = {
    bundle: true,
    minify: true,
    alias,
    platform: 'browser' as const,
    target: 'es2022',
    logLevel: 'silent' as const,
  }
  await build({
    ...common,
    format: 'iife',
    outfile: join(outDir, 'harness.js'),
    stdin: {
      resolveDir: root,
      loader: 'ts',
      contents: [
        "import Dexie from 'dexie'",
        "import Papa from 'papaparse'",
        "import { db } from '@/db/schema'",
        "import * as lists from '@/db/lists'",
        "import * as rows from '@/db/rows'",
        "import * as ingest from '@/db/library-ingest'",
        "import * as query from '@/db/library-query'",
        "import * as facets from '@/db/facet-tally'",
        "import * as blocks from '@/db/blocks'",
        "import * as queries from '@/db/list-queries'",
        "import * as listOps from '@/db/list-ops'",
        "import { exportInWorkers, exportWorkerCount } from '@/workers/export-client'",
        // The export workers as the app starts them, from the bench's own bundle of their code.
        "const exportWorker = () => new Worker(new URL('/bench/export-worker.js', location.origin), { type: 'module' })",
        'const exportList = (list, options, parts) => exportInWorkers(list, options, exportWorker, parts)',
        "import { exportLibraryInWorkers } from '@/workers/export-client'",
        'const exportLibrary = (request, parts) => exportLibraryInWorkers(request, exportWorker, parts)',
        "import { importWorkerCount, spawnImportWorkers, startImportWorker } from '@/workers/import-client'",
        // The import workers as the app starts them, from the bench's own bundle of their code.
        "const importWorker = () => new Worker(new URL('/bench/import-worker.js', location.origin), { type: 'module' })",
        'const importWorkers = (threads, rehearsal) => spawnImportWorkers(importWorker, threads, rehearsal)',
        "import { knownToLibrary, provideLibrary, workerLibrary } from '@/db/library-client'",
        // The library worker as the app starts it, from the bench's own bundle of it.
        "const libraryWorker = workerLibrary(() => new Worker(new URL('/bench/library-worker.js', location.origin), { type: 'module' }))",
        'provideLibrary(libraryWorker)',
        'libraryWorker.prepare()',
        "import readExcelFile from 'read-excel-file/universal'",
        'Object.assign(globalThis, { lk: { Dexie, Papa, readExcelFile, db, lists, rows, listOps, knownToLibrary, library: { ...ingest, ...query }, libraryWorker, facets, blocks, queries, exportList, exportLibrary, exportWorkerCount, importWorkers, importWorkerCount, startImportWorker } })',
        "import './tests/bench/page/kit'",
        "import './tests/bench/page/edits'",
      ].join('\n'),
    },
  })
  await build({
    ...common,
    format: 'esm',
    entryPoints: [join(root, 'src/workers/list-import.ts')],
    outfile: join(outDir, 'import-worker.js'),
  })
  await build({
    ...common,
    format: 'esm',
    entryPoints: [join(root, 'src/workers/library.ts')],
    outfile: join(outDir, 'library-worker.js'),
  })
  await build({
    ...common,
    format: 'esm',
    entryPoints: [join(root, 'src/workers/list-export.ts')],
    outfile: join(outDir, 'export-worker.js'),
  })
}

export interface WebHostProcess {
  url: string
  origin: string
  close(): Promise<void>
}

/** `electron/web/start.ts` as a user starts it, on a free port, with a settings folder of its own. */
export async function startWebHost(): Promise<WebHostProcess> {
  const home = mkdtempSync(join(tmpdir(), 'lk-bench-home-'))
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/web/start.ts', '--port', '0', '--json'],
    {
      cwd: root,
      env: {
        ...process.env,
        LEADKEEPER_HOME: home,
        LEADKEEPER_RENDERER_DIR: join(buildDir, 'renderer'),
        LEADKEEPER_SANDBOX_TIME_SCALE: '0.01',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  const line = await new Promise<string>((done, fail) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', done)
    child.once('exit', (code) => fail(new Error(`web host exited ${code}`)))
  })
  const { url, origin } = JSON.parse(line) as { url: string; origin: string }
  return {
    url,
    origin,
    close: async () => {
      const exited = new Promise((done) => child.once('exit', done))
      child.kill('SIGTERM')
      await exited
      rmSync(home, { recursive: true, force: true })
    },
  }
}

const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--enable-precise-memory-info',
  '--js-flags=--expose-gc',
]

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
}

/**
 * A browser with a profile on disk, as a user's: a fresh context of `launchChromium` is off the
 * record, and keeps IndexedDB in memory under a quota too small for a million rows.
 */
export async function launchWithProfile(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'lk-bench-profile-'))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
    args: chromiumArgs,
    viewport: { width: 1400, height: 900 },
    bypassCSP: true,
  })
  return {
    context,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    },
  }
}

function childrenOf(pid: number): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
      if (ppid === pid) found.push(Number(entry))
    } catch {
      // The process ended while the table was read.
    }
  }
  return found
}

function rendererPids(): number[] {
  const queue = childrenOf(process.pid)
  const found: number[] = []
  while (queue.length) {
    const pid = queue.pop()!
    queue.push(...childrenOf(pid))
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) found.push(pid)
    } catch {
      // The process ended while it was read.
    }
  }
  return found
}

function rssOf(pid: number): number {
  try {
    const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return rss ? Number(rss[1]) * 1024 : 0
  } catch {
    return 0 // The process ended while it was read.
  }
}

/** CPU time a process has used, in clock ticks (user + system). */
function cpuTicksOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return Number(fields[11]) + Number(fields[12])
  } catch {
    return 0
  }
}

/** Resident memory of every Chromium renderer this process started, in bytes (Linux /proc). */
function rendererRssBytes(): number {
  return rendererPids().reduce((total, pid) => total + rssOf(pid), 0)
}

/**
 * The renderer process that runs `page` (its dedicated workers run in it too): the one whose CPU
 * time grows while the page spins. Headless Chromium runs renderers of its own beside it (its
 * browser UI's, `--top-chrome-webui`, and a spare one for the next navigation) that an Electron
 * window does not have, 230 MB between them, so the app's memory is this process's alone.
 */
export async function pageRendererPid(page: Page): Promise<number> {
  const pids = rendererPids()
  const before = pids.map(cpuTicksOf)
  await page.evaluate(() => {
    const end = performance.now() + 300
    while (performance.now() < end);
  })
  const grown = pids.map((pid, i) => cpuTicksOf(pid) - before[i]!)
  const most = Math.max(...grown)
  if (!(most > 0)) throw new Error('no renderer process ran the page')
  return pids[grown.indexOf(most)]!
}

export interface RendererPeak {
  /** The page's renderer process, with its workers: the app's memory. */
  app: number
  /** Every renderer process of the browser, Chromium's own among them. */
  all: number
}

/** Samples the resident memory of `page`'s renderer, and of all renderers, until stopped; returns the peaks. */
export async function sampleRendererRss(page: Page, everyMs = 200): Promise<{ stop(): RendererPeak }> {
  const pid = await pageRendererPid(page)
  const peak: RendererPeak = { app: 0, all: 0 }
  const sample = () => {
    peak.app = Math.max(peak.app, rssOf(pid))
    peak.all = Math.max(peak.all, rendererRssBytes())
  }
  sample()
  const timer = setInterval(sample, everyMs)
  return {
    stop: () => {
      clearInterval(timer)
      sample()
      return { ...peak }
    },
  }
}
