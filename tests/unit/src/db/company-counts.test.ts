import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { deleteList } from '@/db/lists'
import { duplicateList, removeRows, undo } from '@/db/list-ops'
import { listsNamingCompany } from '@/db/library-pages'
import { applyEnrichmentResults, facetCounts } from '@/db/rows'
import type { LeadkeeperDb } from '@/db/schema'
import { allRows } from '../support/rows'
import { found, seed } from '../support/list-fixtures'
import { eachTestDatabase } from '../support/database'

let database: LeadkeeperDb
eachTestDatabase((made) => (database = made.database))

/** A list of 6,000 rows answered, each company named by two rows: 3,000 companies. */
async function manyCompanies(): Promise<void> {
  await seed(database, 'L', 6_000)
  await applyEnrichmentResults(
    'L',
    Array.from({ length: 6_000 }, (_, index) =>
      found('L', index, { company_name: `Company ${index % 3_000}` }),
    ),
    1_000,
    database,
  )
  await database.lists.update('L', { state: 'done' })
}

/** The list's company counts as the page shows them, by name. */
async function companyCounts(listId = 'L'): Promise<Map<string | number, number>> {
  const counts = await facetCounts(listId, database)
  return new Map(counts.company.filter(({ value }) => value !== '').map(({ value, count }) => [value, count]))
}

/** The same counted from the rows shown. */
async function countedFromRows(listId = 'L'): Promise<Map<string | number, number>> {
  const out = new Map<string | number, number>()
  for (const row of await allRows(database, listId))
    if (row.removedAt === undefined && row.company) out.set(row.company, (out.get(row.company) ?? 0) + 1)
  return out
}

describe("a list's company counts", () => {
  it('are kept a record a bucket of names, whatever the number of companies, as the rows say', async () => {
    await manyCompanies()
    const counts = await companyCounts()
    expect(counts.size).toBe(3_000)
    expect(counts.get('Company 7')).toBe(2)
    expect(counts).toEqual(await countedFromRows())
    expect(await database.companyCounts.count()).toBeLessThanOrEqual(64)
    expect((await database.facetCounts.toArray()).filter(({ facet }) => facet === 'company')).toEqual([])
  })

  it('lose a company once no row shown names it, and a bucket once it names none; an undo brings them back', async () => {
    await manyCompanies()
    // Rows 0–2,999 and 3,000–5,999 name the same companies: the first half removed leaves them all.
    await removeRows(
      'L',
      Array.from({ length: 3_000 }, (_, at) => at),
      database,
    )
    expect((await companyCounts()).get('Company 7')).toBe(1)
    // Every row removed: no company is counted, no bucket is left.
    await removeRows(
      'L',
      Array.from({ length: 3_000 }, (_, at) => 3_000 + at),
      database,
    )
    expect((await companyCounts()).size).toBe(0)
    expect(await database.companyCounts.count()).toBe(0)
    await undo('L', database)
    expect(await companyCounts()).toEqual(await countedFromRows())
    expect((await companyCounts()).get('Company 7')).toBe(1)
  })

  it('go with their list, come with its copy, and name the lists a company page shows', async () => {
    await manyCompanies()
    const copy = await duplicateList('L', database)
    if (!copy.ok) throw new Error(copy.message)
    expect(await companyCounts(copy.value.id)).toEqual(await companyCounts())
    const named = await listsNamingCompany(['Company 7', 'Company 8', 'Nobody'], database)
    expect(named.map(({ list, companies, rows }) => [list.id, companies, rows]).sort()).toEqual(
      [
        ['L', ['Company 7', 'Company 8'], 4],
        [copy.value.id, ['Company 7', 'Company 8'], 4],
      ].sort(),
    )
    await deleteList('L', database)
    expect((await listsNamingCompany(['Company 7'], database)).map(({ list }) => list.id)).toEqual([
      copy.value.id,
    ])
    await deleteList(copy.value.id, database)
    expect(await database.companyCounts.count()).toBe(0)
  })
})
