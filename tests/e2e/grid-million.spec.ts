import { expect, test } from './fixtures'
import { ResultsPage } from './pages/library'
import { ShellPage } from './pages/shell'

test.setTimeout(900_000)

// Figures (time to first rows, frame times) belong to `npm run bench`; this pins that it works at all.
test('a million-row list opens, scrolls and reaches its last row', async ({ app }) => {
  await new ShellPage(app).open('Lists')
  await app.waitForFunction(async () => (await indexedDB.databases()).some((d) => d.name === 'leadkeeper'))
  await app.evaluate(async () => {
    const database = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('leadkeeper')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    // Blocks are keyed out of line, by [list, block]; the other stores' records hold their keys.
    const put = (store: string, records: unknown[]) =>
      new Promise<void>((resolve, reject) => {
        const tx = database.transaction([store], 'readwrite')
        const os = tx.objectStore(store)
        for (const record of records) {
          if (os.keyPath === null) {
            const { listId: list, block } = record as { listId: string; block: number }
            os.put(record, [list, block])
          } else os.put(record)
        }
        tx.oncomplete = () => resolve()
        tx.onerror = () => reject(tx.error)
      })
    const listId = 'big'
    await put('lists', [
      {
        id: listId,
        name: 'Million',
        createdAt: 1,
        updatedAt: 1,
        source: { fileName: 'm.csv', size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
        columns: ['First', 'Last', 'Domain'],
        mapping: { first_name: 0, last_name: 1, company_domain: 2 },
        rowCount: 1_000_000,
        state: 'ready',
        jobIds: [],
        creditsSpent: 0,
      },
    ])
    // Stored as the app stores rows: blocks of 1,000, each with its facet columns (the company's
    // apart) and a revision.
    const unknown = {
      status: 'pending',
      emailStatus: '',
      seniority: '',
      country: '',
      company: '',
      hasPhone: 0,
    }
    for (let start = 0; start < 1_000_000; start += 50_000) {
      const blocks = []
      const facets = []
      const companies = []
      for (let first = start; first < start + 50_000; first += 1_000) {
        const rows = []
        for (let index = first; index < first + 1_000; index++) {
          rows.push({
            index,
            values: [`F${index}`, `L${index}`, `d${index % 5000}.com`],
            issues: [],
            skip: false,
            status: 'pending',
          })
        }
        blocks.push({ listId, block: first / 1_000, rows })
        const column = (value: string | number) => ({ values: [value], codes: new Uint8Array(1_000) })
        const { company, ...narrow } = unknown
        const columns = Object.fromEntries(
          Object.entries(narrow).map(([facet, value]) => [facet, column(value)]),
        )
        facets.push({ listId, block: first / 1_000, size: 1_000, columns })
        companies.push({ listId, block: first / 1_000, size: 1_000, column: column(company) })
      }
      await put('listBlocks', blocks)
      await put('listFacets', facets)
      await put('listCompanies', companies)
    }
    await put('blockRevs', [{ listId, revs: Array.from({ length: 1_000 }, () => 1) }])
    await put('facetCounts', [{ listId, facet: 'status', value: 'pending', count: 1_000_000 }])
  })
  const results = new ResultsPage(app)
  await results.goto('big')
  await expect(results.row(0)).toContainText('F0')
  await expect(results.rowCount()).toContainText('1,000,000 rows')
  await results.scroller().evaluate((element) => {
    element.scrollTop = element.scrollHeight
  })
  await expect(async () => {
    const shown = await results.shownNumbers()
    expect(shown.at(-1)).toBe(1_000_000)
  }).toPass({ timeout: 60_000 })
  await expect(results.row(999_999)).toContainText('F999999')
  await new ShellPage(app).screenshot('grid-million-end')
})
