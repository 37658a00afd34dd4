import { expect, type Locator, type Page } from '@playwright/test'
import { build } from 'esbuild'

export const seededRows = 200_000
/** Rows with results: the first quarter of the list. */
export const enrichedRows = 50_000
export const emailStatusCycle = ['deliverable', 'catch_all_safe', 'catch_all', 'not_found'] as const

let bundle: Promise<string> | null = null

/** The app's own list and library functions, bundled for a page (tests/e2e/support/seed-entry.ts). */
function seedScript(): Promise<string> {
  const folders: Record<string, string> = {
    '@': 'src',
    '@shared': 'electron/shared',
    '@domain': 'electron/domain',
  }
  bundle ??= build({
    entryPoints: ['tests/e2e/support/seed-entry.ts'],
    bundle: true,
    format: 'iife',
    target: 'chrome120',
    write: false,
    define: { 'import.meta.env': JSON.stringify({ MODE: 'e2e' }) },
    plugins: [
      {
        name: 'aliases',
        setup(esbuild) {
          esbuild.onResolve({ filter: /^@(shared|domain)?\// }, async (args) => {
            const [alias, ...rest] = args.path.split('/')
            return esbuild.resolve(`./${folders[alias!]}/${rest.join('/')}`, {
              kind: args.kind,
              resolveDir: process.cwd(),
            })
          })
        },
      },
    ],
  }).then((result) => result.outputFiles[0]!.text)
  return bundle
}

/**
 * Writes what a test starts from with the app's own functions (`tests/e2e/support/seed-entry.ts`):
 * `tradeFair`, a list of `rows` (200,000 unless given) whose first quarter (at most 50,000) was
 * answered; `library`, 300 people answered on a list and 100 companies of a company search.
 *
 * The writes run on a page of the same origin that is not the app (one of its own script files), so
 * nothing of the app holds the database or a copy of it meanwhile; the page returns to the app
 * afterwards, which reads everything afresh. Returns the list's id.
 */
export async function seedDatabase(
  page: Page,
  what: 'tradeFair' | 'library',
  options: { rows?: number } = {},
): Promise<string> {
  const rows = options.rows ?? seededRows
  const appUrl = page.url()
  const script = await page.evaluate(
    () => document.querySelector<HTMLScriptElement>('script[type="module"]')!.src,
  )
  await page.goto(script)
  await page.evaluate(await seedScript())
  // `window.seed`: tests/e2e/support/seed-entry.ts, typed there (this project compiles apart).
  const { listId } = await page.evaluate(
    ({ what, rows, enriched }) => {
      const seed = (
        window as unknown as { seed: Record<string, (options?: object) => Promise<{ listId: string }>> }
      ).seed
      return seed[what]!({ rows, enriched })
    },
    { what, rows, enriched: Math.min(enrichedRows, Math.floor(rows / 4)) },
  )
  await page.goto(appUrl)
  // The router's first navigation done, its page drawn in the shell's main: a change of address
  // after it is not undone by it. The shell's title shows before it, so it is no sign.
  await page.locator('main.content > *').first().waitFor()
  return listId
}

/** The open menu's options whose label does not fit (cut short with an ellipsis). */
export function cutOptions(page: Page): Promise<string[]> {
  return page.locator('.n-base-select-option:visible').evaluateAll((options) =>
    options.flatMap((option) => {
      const content = option.querySelector('.n-base-select-option__content')
      return content && content.scrollWidth > content.clientWidth ? [content.textContent ?? ''] : []
    }),
  )
}

/** A drawer slides in: wait until it rests inside the window before looking at it. */
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

  async goto(listId: string): Promise<void> {
    await this.page.goto(new URL(`#/lists/${listId}`, this.page.url()).href)
  }

  /** Opens a row's drawer as the keyboard does: a click puts the keyboard on one of its cells, Enter opens it. */
  async open(index: number): Promise<void> {
    await this.row(index).locator('.cell').nth(2).click()
    await this.page.keyboard.press('Enter')
  }

  /** A drawn cell of row `index` in the column titled `title`. */
  cell = async (index: number, title: string) => {
    const exact = new RegExp(`^${title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`)
    const head = this.header()
      .locator('.head')
      .filter({ has: this.page.locator('.label', { hasText: exact }) })
      .first()
    // The grid draws the columns in view: its column is scrolled to first.
    await head.scrollIntoViewIfNeeded()
    const key = await head.getAttribute('data-column')
    return this.row(index).locator(`.cell[data-column="${key}"]`)
  }

  /** Edits a cell in place: a double-click, the value typed over it, Enter. */
  async editCell(index: number, title: string, value: string): Promise<void> {
    await (await this.cell(index, title)).dblclick()
    const editor = this.grid().locator('[data-test="cell-editor"]')
    await expect(editor).toBeFocused()
    await editor.fill(value)
    await editor.press('Enter')
    await expect(editor).toBeHidden()
  }

  /** Clicks a row's number, with modifier keys: selects it, a range, or adds it. */
  async selectRow(index: number, modifiers: ('Shift' | 'ControlOrMeta')[] = []): Promise<void> {
    await this.row(index).locator('.cell').first().click({ modifiers })
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
  exportButton = () => this.page.locator('[data-test="library-export"]')
  newListButton = () => this.page.locator('[data-test="library-new-list"]')
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
