import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { ImportDialog } from './pages/import'
import { firstCellSeen, ResultsPage } from './pages/library'
import { ShellPage } from './pages/shell'

/**
 * Texts of every width and script: cells too narrow for them show them cut with an ellipsis (written
 * by the grid, no cell clipping), scripts it does not measure are clipped by the browser as before.
 */
const people = [
  [
    'Zoë',
    'Ångström-Øre',
    'zoe.angstrom-ore@northwind-analytics-international.example',
    'Ärzte ohne Grenzen e.V. Deutschland',
  ],
  ['WWWWWWWWWWWWWWWWWWWWWWWW', 'MMMMMMMMMMMMMMMMMMMM', 'w@w.io', 'WWW Consolidated Widgets Worldwide'],
  ['iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii', 'Li', 'li@l.io', 'Ill Illinois Light'],
  ['太郎', '山田山田山田山田山田山田', 'taro.yamada@example.jp', '株式会社山田山田山田山田山田商事'],
  ['Ze\u0301phyrine', 'Ve\u0301ronique-Hélène de la Côte-d’Azur', 'zephyrine@example.fr', 'Société Générale'],
  ['Олександра', 'Коваленко-Шевченко', 'o.kovalenko@example.ua', 'Укрзалізниця'],
  ['مريم', 'الهاشمي', 'mariam@example.ae', 'شركة الإمارات للاتصالات المتكاملة'],
  ['Al', 'Bo', 'a@b.co', 'X'],
]

/** Each drawn cell of the rows read: its text shown, its whole text, whether it clips, whether it overflows. */
function drawnCells(page: Page) {
  return page.evaluate(() => {
    const heads = [...document.querySelectorAll('[data-test="grid"] .header .head')].map(
      (head) => (head as HTMLElement).title,
    )
    return [...document.querySelectorAll('[data-test="grid"] .row:not(.pending)')].flatMap((row) =>
      [...row.querySelectorAll(':scope > .cell')].map((element, at) => {
        const cell = element as HTMLElement & { drawnText?: string }
        return {
          row: Number(row.getAttribute('data-row-index')),
          column: heads[at]!,
          shown: cell.textContent ?? '',
          whole: cell.drawnText ?? cell.textContent ?? '',
          clip: cell.classList.contains('clip'),
          overflows: cell.scrollWidth > cell.clientWidth,
        }
      }),
    )
  })
}

async function expectDrawnWell(page: Page) {
  const cells = await drawnCells(page)
  expect(cells.length).toBeGreaterThan(people.length * 4)
  for (const cell of cells) {
    // Nothing overflows a cell that does not clip; a cut text is the start of the whole and an ellipsis.
    if (!cell.clip) expect(cell.overflows, JSON.stringify(cell)).toBe(false)
    if (cell.shown !== cell.whole) {
      expect(cell.clip, JSON.stringify(cell)).toBe(false)
      expect(cell.shown.endsWith('…'), JSON.stringify(cell)).toBe(true)
      expect(cell.whole.startsWith(cell.shown.slice(0, -1).trimEnd()), JSON.stringify(cell)).toBe(true)
    }
  }
  return cells
}

test('cells too narrow for their text show it cut, whole on hover and when copied', async ({ app }) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const results = new ResultsPage(app)
  await shell.open('Lists')
  const csv = [
    'First Name,Last Name,Email,Company',
    ...people.map((cells) => cells.map((c) => `"${c}"`).join(',')),
  ]
  await dialog.dropFile('widths.csv', new TextEncoder().encode(csv.join('\n')))
  await dialog.next()
  await dialog.readAll()
  await dialog.finish()
  await expect(results.row(people.length - 1)).toBeVisible()
  // The grid reads its font at its first idle moment after the rows are drawn, and cuts the texts
  // then (until then every cell clips): on a busy machine, a moment after the rows show.
  await expect
    .poll(
      async () =>
        (await drawnCells(app)).find((cell) => cell.row === 1 && cell.column === 'First Name')?.shown,
    )
    .toMatch(/^W+…$/)

  const cells = await expectDrawnWell(app)
  const at = (row: number, column: string) =>
    cells.find((cell) => cell.row === row && cell.column === column)!
  // Each stored value is drawn whole or cut, in its row and column.
  people.forEach((person, row) =>
    ['First Name', 'Last Name', 'Email', 'Company'].forEach((column, c) =>
      expect(at(row, column).whole).toBe(person[c]),
    ),
  )
  expect(at(1, 'First Name').shown).toMatch(/^W+…$/)
  expect(at(2, 'First Name').shown.length).toBeGreaterThan(at(1, 'First Name').shown.length)
  expect(at(0, 'Email').shown).toMatch(/^zoe\.a.*…$/)
  expect(at(7, 'Email')).toMatchObject({ shown: 'a@b.co', clip: false })
  // Scripts the grid does not measure are clipped by the browser, as every cell was.
  expect(at(3, 'Company').clip).toBe(true)
  expect(at(6, 'Company').clip).toBe(true)
  expect(at(5, 'Company').clip).toBe(false)
  await results.grid().scrollIntoViewIfNeeded()
  await results.grid().screenshot({ path: 'test-results/screenshots/grid-cells-cut.png' })

  // A cut cell shows its whole text on hover.
  const heads = await results
    .header()
    .locator('.head')
    .evaluateAll((all) => all.map((h) => (h as HTMLElement).title))
  const email = results.row(0).locator(':scope > .cell').nth(heads.indexOf('Email'))
  await expect(email).toHaveText(at(0, 'Email').shown)
  await email.hover()
  await expect(email).toHaveAttribute('title', people[0]![2]!)

  // Narrower columns cut sooner, and nothing overflows.
  const head = app.locator('[data-test="grid"] .head[title="Email"] .resize')
  const box = (await head.boundingBox())!
  await app.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await app.mouse.down()
  await app.mouse.move(box.x - 40, box.y + box.height / 2, { steps: 5 })
  await app.mouse.up()
  const emailOf = async (row: number) =>
    (await drawnCells(app)).find((cell) => cell.row === row && cell.column === 'Email')!.shown
  await expect.poll(async () => (await emailOf(0)).length).toBeLessThan(at(0, 'Email').shown.length)
  await expectDrawnWell(app)

  // Copied across rows, the cells come whole, a tab between cells and a line a row.
  await app.evaluate((heads) => {
    const rows = [...document.querySelectorAll('[data-test="grid"] .row:not(.pending)')]
    const first = rows.find((row) => row.getAttribute('data-row-index') === '0')!
    const second = rows.find((row) => row.getAttribute('data-row-index') === '1')!
    const range = document.createRange()
    range.setStart(first.children[heads.indexOf('Email')]!.firstChild!, 0)
    range.setEnd(second.children[heads.indexOf('First Name')]!.firstChild!, 2)
    getSelection()!.removeAllRanges()
    getSelection()!.addRange(range)
    const seen = window as unknown as { copied?: string }
    window.addEventListener('copy', (event) => (seen.copied = event.clipboardData!.getData('text/plain')), {
      once: true,
    })
  }, heads)
  await app.keyboard.press('Control+C')
  const copied = await app.evaluate(() => (window as unknown as { copied?: string }).copied)
  const lines = copied!.split('\n').map((line) => line.split('\t'))
  expect(lines[0]!.slice(0, 2)).toEqual([people[0]![2], people[0]![3]])
  expect(lines[1]!.at(-1)).toBe(people[1]![0])
})

test('the row number stays at the left, over the columns scrolled under it, when the grid is scrolled sideways', async ({
  app,
}) => {
  const shell = new ShellPage(app)
  const dialog = new ImportDialog(app)
  const results = new ResultsPage(app)
  await shell.open('Lists')
  const extra = Array.from({ length: 12 }, (_, at) => `Note ${at + 1}`)
  const csv = [
    ['First Name', 'Last Name', 'Email', 'Company', ...extra].join(','),
    ...Array.from({ length: 30 }, (_, row) =>
      [
        `Ana${row}`,
        `Lee${row}`,
        `ana${row}@x${row}.io`,
        `Firm ${row}`,
        ...extra.map((note) => `${note} of ${row}`),
      ].join(','),
    ),
  ]
  await dialog.dropFile('wide.csv', new TextEncoder().encode(csv.join('\n')))
  await dialog.next()
  await dialog.readAll()
  await dialog.finish()
  await expect(results.row(0)).toBeVisible()
  const scroller = results.scroller()
  await scroller.evaluate((element) => (element.scrollLeft = element.scrollWidth))
  // The last column (the row's result) is drawn, the first columns are not, and the rows' numbers
  // are where they were, at the grid's left edge, seen over what scrolled under them.
  await expect(results.row(0)).toContainText('Not enriched yet')
  await expect(results.row(0)).not.toContainText('Ana0')
  await expect.poll(() => firstCellSeen(results.grid(), 0)).toMatchObject({ text: '1', seen: '1' })
  const { edge, x } = await firstCellSeen(results.grid(), 0)
  expect(x).toBe(edge)
  const head = results.header().locator('.head').first()
  await expect(head).toHaveAttribute('title', '#')
  expect((await head.boundingBox())!.x).toBe(edge)
  // Part way, the number covers the text scrolled under it.
  await scroller.evaluate((element) => (element.scrollLeft = 150))
  await expect(results.row(0)).toContainText('Ana0')
  await expect.poll(() => firstCellSeen(results.grid(), 0)).toMatchObject({ text: '1', seen: '1', x: edge })
  await results.grid().scrollIntoViewIfNeeded()
  await results.grid().screenshot({ path: 'test-results/screenshots/grid-pinned-number.png' })
  // The pinned cells and head paint over an opaque colour in either theme (the dark theme's header
  // and stripes are see-through by themselves), so nothing under them shows through.
  for (const scheme of ['dark', 'light'] as const) {
    await app.emulateMedia({ colorScheme: scheme })
    const colours = await results
      .grid()
      .evaluate((grid) =>
        [...grid.querySelectorAll('.head.pinned, .row .cell.pinned')]
          .slice(0, 4)
          .map((cell) => getComputedStyle(cell).backgroundColor),
      )
    expect(colours).toHaveLength(4)
    for (const colour of colours) expect(colour, scheme).toMatch(/^rgb\(/)
    if (scheme === 'dark') {
      await results.grid().screenshot({ path: 'test-results/screenshots/grid-pinned-number-dark.png' })
    }
  }
  // Back at the left edge, nothing is pinned over anything: the grid is drawn as before.
  await scroller.evaluate((element) => (element.scrollLeft = 0))
  await expect(results.grid()).not.toHaveClass(/sideways/)
})
