import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { keyHash } from '@/db/key-hash'
import { companyForgetPlan, forgetCompany } from '@/db/library-forget'
import { editCells, listHistory, undo } from '@/db/list-ops'
import { knownToLibrary } from '@/db/library-client'
import { companyFacetCounts, contactFacetCounts } from '@/db/library-query'
import { libraryService } from '@/db/library-service'
import { upsertContacts } from '@/db/library-ingest'
import { facetCounts, rowsAt } from '@/db/rows'
import { countRows } from '@/db/rows'
import type { LeadkeeperDb } from '@/db/schema'
import { eachTestDatabase } from '../support/database'
import { allContacts, countContacts } from '../support/library'
import { ada, everyString, fairCells, libraryWorld, personPayload } from '../support/library-world'

let database: LeadkeeperDb
eachTestDatabase((made) => (database = made.database))

/** The facet counts of a list recounted from its rows: what the kept counts must say. */
async function recounted(listId: string) {
  const rows = await rowsAt(
    listId,
    Array.from({ length: 20 }, (_, i) => i),
    database,
  )
  const by = (field: 'status' | 'emailStatus' | 'country') => {
    const counts: Record<string, number> = {}
    for (const row of rows) {
      const value = String(row[field] ?? '')
      counts[value] = (counts[value] ?? 0) + 1
    }
    return counts
  }
  return { status: by('status'), emailStatus: by('emailStatus'), country: by('country') }
}

async function kept(listId: string) {
  const counts = await facetCounts(listId, database)
  const by = (field: 'status' | 'emailStatus' | 'country') =>
    Object.fromEntries(counts[field].map(({ value, count }) => [String(value), count]))
  return { status: by('status'), emailStatus: by('emailStatus'), country: by('country') }
}

describe('forgetting a person', () => {
  it('says first how many list rows hold their answer, and writes nothing', async () => {
    const { fair, second } = await libraryWorld(database)
    const library = libraryService(database)
    const plan = await library.contactForgetPlan(ada.id)
    expect(plan).toMatchObject({ found: true, rows: 2, searchResults: 1 })
    expect(plan.lists.map(({ listId, indexes }) => [listId, indexes]).sort()).toEqual(
      [
        [fair, [ada.row]],
        [second, [0]],
      ].sort(),
    )
    expect((await library.contactById(ada.id))?.fullName).toBe(ada.fullName)
    expect(await library.contactForgetPlan('c:nobody')).toMatchObject({ found: false, rows: 0 })
  })

  it('removes them from the library: no search, index or count finds them, and the others stay in order', async () => {
    await libraryWorld(database)
    const library = libraryService(database)
    // The index is read, as the library worker holds it, before the forget.
    expect((await library.searchContacts({ prefix: 'ada' })).items.map((c) => c.id)).toEqual([ada.id])
    const before = await allContacts(database)
    const countsBefore = await contactFacetCounts(database)
    const outcome = await library.forgetContact(ada.id)
    expect(outcome).toEqual({ forgotten: true, rows: 2, lists: 2, searchResults: 1 })
    expect((await library.searchContacts({ prefix: 'ada' })).items).toEqual([])
    expect(await library.matchContactIds({ prefix: 'lovelace' })).toEqual([])
    expect(await library.matchContactIds({ prefix: ada.email })).toEqual([])
    expect(await library.contactById(ada.id)).toBeUndefined()
    expect(await library.knownIdentities(['ada lovelace@engines.io'])).toEqual([])
    expect(await countContacts(database)).toBe(before.length - 1)
    // Browsing everything by position skips the slot that holds nobody now.
    expect((await allContacts(database)).map((c) => c.id)).toEqual(
      before.map((c) => c.id).filter((id) => id !== ada.id),
    )
    const everyone = await library.matchContactIds({})
    expect(everyone).toEqual(before.map((c) => c.id).filter((id) => id !== ada.id))
    const counts = await contactFacetCounts(database)
    const france = (all: typeof counts) => all.country.find(({ value }) => value === 'France')?.count
    expect(france(counts)).toBe(france(countsBefore)! - 1)
    // Filed again later, she is a new person at the end, found as anyone is.
    await upsertContacts(
      [personPayload(ada.row)],
      { kind: 'lookup', id: 'l', label: 'Lookup', at: 9_000 },
      database,
    )
    expect((await library.searchContacts({ prefix: 'ada' })).items.map((c) => c.id)).toEqual([ada.id])
    expect((await allContacts(database))[0]!.id).toBe(ada.id)
  })

  it("clears the rows' answers, keeps their cells, and keeps each list's counts right", async () => {
    const { fair } = await libraryWorld(database)
    await libraryService(database).forgetContact(ada.id)
    const [row] = await rowsAt(fair, [ada.row], database)
    expect(row).toMatchObject({ index: ada.row, values: fairCells(ada.row), status: 'pending', skip: false })
    for (const field of [
      'result',
      'answers',
      'origins',
      'contactId',
      'emailStatus',
      'country',
      'company',
      'hasPhone',
    ])
      expect(row).not.toHaveProperty(field)
    // The other rows keep their answers.
    const [other] = await rowsAt(fair, [2], database)
    expect(other?.result?.['contact_email_address']).toBe('p2@d2.com')
    expect(await kept(fair)).toEqual(await recounted(fair))
    expect(await countRows(fair, { filters: { status: ['pending'] } }, database)).toBe(1)
  })

  it('leaves nothing of them in any store but the cells the user imported', async () => {
    const { fair } = await libraryWorld(database)
    await libraryService(database).forgetContact(ada.id)
    const strings = await everyString(database)
    for (const needle of [
      ada.fullName,
      ada.email,
      ada.id,
      ada.phone,
      ada.networkUrl,
      'Analyst of engines',
      '1003',
    ])
      expect(strings.filter(({ text }) => text.includes(needle)).map(({ table }) => table)).toEqual([])
    // Her first and last names stay only as the cells of the two lists' rows.
    const named = strings.filter(({ text }) => text.includes('Lovelace'))
    expect(new Set(named.map(({ table }) => table))).toEqual(new Set(['listBlocks']))
    expect((await rowsAt(fair, [ada.row], database))[0]?.values).toEqual([
      'Ada',
      'Lovelace',
      'engines.io',
      'note 3',
    ])
  })

  it("leaves neither their company domain's hash nor what their answers changed", async () => {
    await libraryWorld(database)
    const library = libraryService(database)
    // A later answer moves her: a company at another domain and another title, kept as changes.
    await upsertContacts(
      [
        {
          ...personPayload(ada.row),
          contact_job_title: 'Engine designer',
          company_name: 'Analytical',
          company_domain: 'analytical.io',
        },
      ],
      { kind: 'lookup', id: 'moved', label: 'Lookup', at: 8_000 },
      database,
    )
    const moved = await library.contactById(ada.id)
    expect(moved?.changes?.map((change) => change.field)).toEqual(['company', 'jobTitle'])
    expect((await library.searchContacts({ domain: 'analytical.io' })).items.map((c) => c.id)).toEqual([
      ada.id,
    ])
    const changed = async () =>
      (await contactFacetCounts(database)).changed.find(({ value }) => value === 'changed')?.count ?? 0
    expect(await changed()).toBe(1)

    await library.forgetContact(ada.id)
    // A company's page finds its people by the domain hashes of the key blocks: hers is gone.
    expect((await library.searchContacts({ domain: 'analytical.io' })).items).toEqual([])
    expect(await library.matchContactIds({ domain: 'analytical.io' })).toEqual([])
    expect((await library.contactFacetCounts({ domain: 'analytical.io' })).country).toEqual([])
    const hashes = new Set([keyHash('analytical.io'), keyHash('engines.io')])
    for (const block of await database.peopleKeys.toArray())
      expect([...block.domains].filter((hash) => hashes.has(hash))).toEqual([])
    expect(await changed()).toBe(0)
    // What changed in her (the title and company she had, and moved to) is not kept of her either.
    const strings = await everyString(database)
    for (const needle of ['Engine designer', 'Analyst of engines'])
      expect(strings.filter(({ text }) => text.includes(needle)).map(({ table }) => table)).toEqual([])
    const people = strings.filter(({ table }) => table === 'peopleBlocks' || table === 'peopleKeys')
    expect(people.filter(({ text }) => /analytical|engines/i.test(text))).toEqual([])
  })

  it("notes it in each list's history, for good, and keeps nothing of them in the history's rows", async () => {
    const { fair, second } = await libraryWorld(database)
    // An edit of her notes, then of her last name: the history keeps her row before and after each,
    // and the second sets her answer aside on the row as an earlier one.
    expect(
      (
        await editCells(
          fair,
          [{ index: ada.row, column: 3, value: 'met at the fair' }],
          knownToLibrary(database),
          database,
        )
      ).ok,
    ).toBe(true)
    expect(
      (
        await editCells(
          fair,
          [{ index: ada.row, column: 1, value: 'King' }],
          knownToLibrary(database),
          database,
        )
      ).ok,
    ).toBe(true)
    expect((await rowsAt(fair, [ada.row], database))[0]?.earlier).toHaveLength(1)
    expect(await libraryService(database).contactForgetPlan(ada.id)).toMatchObject({ rows: 2 })
    await libraryService(database).forgetContact(ada.id)
    for (const listId of [fair, second]) {
      const last = (await listHistory(listId, database)).at(-1)!
      expect(last).toMatchObject({ kind: 'forget', rows: 1, undoable: false })
      expect(last.label).not.toContain('Lovelace')
    }
    const [row] = await rowsAt(fair, [ada.row], database)
    expect(row).toMatchObject({ values: ['Ada', 'King', 'engines.io', 'met at the fair'], status: 'pending' })
    expect(row).not.toHaveProperty('earlier')
    const strings = await everyString(database)
    for (const needle of [ada.email, ada.id, ada.phone, ada.networkUrl, ada.fullName])
      expect(strings.filter(({ text }) => text.includes(needle)).map(({ table }) => table)).toEqual([])
    // An undo goes past the forget (nothing to take back) to the edit before it, which brings no
    // answer back.
    expect((await undo(fair, database)).ok).toBe(true)
    const [undone] = await rowsAt(fair, [ada.row], database)
    expect(undone).toMatchObject({ values: ['Ada', 'Lovelace', 'engines.io', 'met at the fair'] })
    expect(undone?.result).toBeUndefined()
    expect(await kept(fair)).toEqual(await recounted(fair))
  })

  it('forgets nobody twice: a second forget changes nothing', async () => {
    await libraryWorld(database)
    const library = libraryService(database)
    await library.forgetContact(ada.id)
    const people = await countContacts(database)
    expect(await library.forgetContact(ada.id)).toEqual({
      forgotten: false,
      rows: 0,
      lists: 0,
      searchResults: 0,
    })
    expect(await countContacts(database)).toBe(people)
  })
})

describe('forgetting a company', () => {
  it('removes its record, its profile and the search rows that found it; its people stay', async () => {
    await libraryWorld(database)
    expect(await companyForgetPlan('alpha.example', database)).toEqual({ found: true, searchResults: 1 })
    const people = await countContacts(database)
    const before = await companyFacetCounts(database)
    expect(await forgetCompany('alpha.example', database)).toEqual({
      forgotten: true,
      rows: 0,
      lists: 0,
      searchResults: 1,
    })
    expect(await database.companies.get('alpha.example')).toBeUndefined()
    const after = await companyFacetCounts(database)
    const retail = (all: typeof after) => all.industry.find(({ value }) => value === 'Retail')?.count ?? 0
    expect(retail(after)).toBe(retail(before) - 1)
    expect(await countContacts(database)).toBe(people)
    const strings = await everyString(database)
    expect(strings.filter(({ text }) => text.includes('alpha.example'))).toEqual([])
    expect(await forgetCompany('alpha.example', database)).toMatchObject({ forgotten: false })
  })
})
