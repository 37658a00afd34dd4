import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { LeadkeeperDb } from '@/db/schema'
import type { ColumnMapping, ContactRecord, RowIssue } from '@/db/records'
import { putContacts } from '../support/library'
import { allRows, rowAt, updateRow } from '../support/rows'
import { storeRows } from '@/db/import-rows'
import { eachTestDatabase, type TestLists } from '../support/database'

const source = { fileName: 'people.csv', size: 100, encoding: 'utf-8', delimiter: ',', hasHeader: true }
const columns = ['First', 'Last', 'Website', 'LinkedIn', 'Notes']
const mapping: ColumnMapping = { first_name: 0, last_name: 1, website: 2, network_url: 3 }

let database: LeadkeeperDb
let lists: TestLists

eachTestDatabase((made) => ({ database, lists } = made))

async function listWith(rows: string[][]) {
  const list = await lists.createList({ name: 'People', source, columns, mapping })
  await lists.appendRows(list.id, 0, rows)
  await lists.finishImport(list.id, rows.length)
  return list
}

function contact(identity: string): ContactRecord {
  return {
    id: 'n:' + identity,
    fullName: '',
    email: '',
    emailStatus: '',
    phone: '',
    jobTitle: '',
    seniority: '',
    country: '',
    companyName: '',
    companyDomain: '',
    networkUrl: '',
    identity,
    words: [],
    nameLower: '',
    emailLower: '',
    domainLower: '',
    data: {},
    sources: [],
    firstSeenAt: 0,
    updatedAt: 0,
  }
}

describe('lists in Dexie', () => {
  it('creates a list importing, appends rows in bulk and finishes it ready with its count', async () => {
    const list = await lists.createList({
      name: 'People',
      source,
      columns,
      mapping: { ...mapping, email: 9 },
    })
    expect(list.state).toBe('importing')
    expect(list.mapping).toEqual(mapping)
    const rows = Array.from({ length: 12_345 }, (_, i) => [`F${i}`, `L${i}`, `site${i}.com`, '', ''])
    await lists.appendRows(list.id, 0, rows.slice(0, 10_000))
    await lists.appendRows(list.id, 10_000, rows.slice(10_000))
    await lists.finishImport(list.id, rows.length)
    expect(await database.lists.get(list.id)).toMatchObject({ state: 'ready', rowCount: 12_345 })
    expect((await allRows(database)).length).toBe(12_345)
    expect(await rowAt(database, list.id, 12_344)).toMatchObject({
      values: ['F12344', 'L12344', 'site12344.com', '', ''],
      issues: [],
      skip: false,
      status: 'pending',
    })
  })

  it('keeps every row whole whichever way its block is stored: packed, joined by later rows, changed, or with a cell too long to pack', async () => {
    const list = await lists.createList({ name: 'People', source, columns, mapping })
    const rows = Array.from({ length: 2_600 }, (_, i) => [`F${i}`, `L${i}`, `site${i}.com`, '', `note ${i}`])
    rows[1_500]![4] = 'x'.repeat(60_000)
    const issues = rows.map((_, i): RowIssue[] => (i % 7 === 0 ? ['duplicate'] : []))
    // Block 0 packed; block 1 as rows, for its long cell; block 2 half, then joined by the rest.
    await lists.appendRows(list.id, 0, rows.slice(0, 2_500), issues.slice(0, 2_500))
    expect(await lists.importedSoFar(list.id)).toEqual({ rows: 2_500, last: rows[2_499] })
    await lists.appendRows(list.id, 2_500, rows.slice(2_500), issues.slice(2_500))
    await lists.finishImport(list.id, rows.length)
    const stored = await database.listBlocks.toArray()
    expect(stored.map((block) => [block.block, 'layout' in block])).toEqual([
      [0, true],
      [1, false],
      [2, false],
    ])
    await updateRow(database, list.id, 1, { skip: true })
    // Changed, a block is written coded; the one with a cell too long for it stays rows.
    const changed = await database.listBlocks.toArray()
    expect(
      changed.map((block) => [block.block, 'layout' in block, 'shape' in block, 'rows' in block]),
    ).toEqual([
      [0, false, true, false],
      [1, false, false, true],
      [2, false, true, false],
    ])
    expect(await allRows(database, list.id)).toEqual(
      rows.map((values, index) => ({
        listId: list.id,
        index,
        values,
        issues: issues[index],
        skip: index === 1,
        status: 'pending',
      })),
    )
    expect(await lists.importedSoFar(list.id)).toEqual({ rows: 2_600, last: rows[2_599] })
    expect(await database.facetCounts.get([list.id, 'status', 'pending'])).toMatchObject({ count: 2_600 })
  })

  it('writes rows that start a block already written into it as rows, not over it as a packed block', async () => {
    const list = await lists.createList({ name: 'People', source, columns, mapping })
    const first = Array.from({ length: 1_200 }, (_, i) => [`F${i}`, `L${i}`, `site${i}.com`, '', 'first'])
    const again = Array.from({ length: 600 }, (_, i) => [`G${i}`, `M${i}`, `web${i}.com`, '', 'again'])
    await lists.appendRows(list.id, 0, first)
    // Rows from a block's first row, the block already there (packed): they go into it one by one.
    await lists.appendRows(list.id, 1_000, again.slice(0, 100), [
      ['duplicate'],
      ...again.slice(1, 100).map(() => []),
    ])
    await lists.appendRows(
      list.id,
      0,
      again.slice(100),
      again.slice(100).map(() => ['known']),
    )
    const stored = await database.listBlocks.toArray()
    expect(stored.map((block) => [block.block, 'layout' in block])).toEqual([
      [0, false],
      [1, false],
    ])
    const expected = [
      ...again.slice(100),
      ...first.slice(500, 1_000),
      ...again.slice(0, 100),
      ...first.slice(1_100),
    ]
    expect((await allRows(database, list.id)).map((row) => [row.values, row.issues])).toEqual(
      expected.map((values, index) => [
        values,
        index < 500 ? ['known'] : index === 1_000 ? ['duplicate'] : [],
      ]),
    )
  })

  it('deletes a list with its rows and leaves other lists alone', async () => {
    const doomed = await listWith([
      ['A', 'B', 'a.com', '', ''],
      ['C', 'D', 'c.com', '', ''],
    ])
    const kept = await listWith([['E', 'F', 'e.com', '', '']])
    await lists.deleteList(doomed.id)
    expect(await database.lists.get(doomed.id)).toBeUndefined()
    expect((await allRows(database, doomed.id)).length).toBe(0)
    expect((await allRows(database)).length).toBe(1)
    expect(await database.lists.get(kept.id)).toBeDefined()
  })

  it('remembers a mapping for the same headers whatever their case', async () => {
    expect(await lists.savedMappingFor(columns)).toBeNull()
    await lists.saveMappingFor(columns, { first_name: 1, last_name: 0 })
    expect(await lists.savedMappingFor(columns.map((column) => ` ${column.toUpperCase()}`))).toEqual({
      first_name: 1,
      last_name: 0,
    })
    expect(await lists.savedMappingFor([...columns, 'Extra'])).toBeNull()
  })

  it('updates a list mapping', async () => {
    const list = await listWith([['A', 'B', 'a.com', '', '']])
    await lists.updateMapping(list.id, { full_name: 0, company_domain: 2 })
    expect((await database.lists.get(list.id))?.mapping).toEqual({ full_name: 0, company_domain: 2 })
  })
})

describe('validateList', () => {
  const rows = [
    ['Jane', 'Doe', 'https://www.acme.com', '', ''], // 0 clean
    ['', 'Roe', 'beta.io', '', ''], // 1 missing_name
    ['John', 'Smith', '', '', ''], // 2 missing_domain
    ['Ann', 'Lee', 'not a domain', '', ''], // 3 malformed_domain
    ['Bob', 'Ray', 'gmail.com', '', ''], // 4 personal_domain
    [' JANE ', 'doe', 'ACME.com/contact', '', ''], // 5 duplicate of 0
    ['Kim', 'Park', 'known.io', '', ''], // 6 known
    ['', '', '', 'https://www.linkedin.com/in/someone', ''], // 7 clean through a profile URL
    ['Max', 'Mustermann', 'yahoo.de', '', ''], // 8 personal_domain
  ]

  it('finds each kind of issue, writes it on the row and gives examples with row indexes', async () => {
    await putContacts(database, [contact('kim park@known.io')])
    const list = await listWith(rows)
    const summary = await lists.validateList(list.id, mapping)
    expect(summary.rows).toBe(9)
    expect(summary.clean).toBe(2)
    expect(summary.counts).toEqual({
      missing_name: 1,
      missing_domain: 1,
      malformed_domain: 1,
      personal_domain: 2,
      duplicate: 1,
      known: 1,
    })
    expect(summary.examples.personal_domain.map((example) => example.index)).toEqual([4, 8])
    expect(summary.examples.duplicate).toEqual([{ index: 5, text: 'JANE doe · acme.com' }])
    const stored = await allRows(database, list.id)
    expect(stored.map((row) => row.issues)).toEqual([
      [],
      ['missing_name'],
      ['missing_domain'],
      ['malformed_domain'],
      ['personal_domain'],
      ['duplicate'],
      ['known'],
      [],
      ['personal_domain'],
    ])
  })

  it('reads the rows a run decides about: who each row is, what it holds, whether it is skipped', async () => {
    const list = await listWith(rows)
    await lists.validateList(list.id, mapping)
    await lists.setSkip(list.id, ['personal_domain'], true)
    await updateRow(database, list.id, 0, { status: 'found', answers: { email: 5, phone: 6 } })
    await updateRow(database, list.id, 7, { status: 'not_found', result: { contact_phone_number: '' } })
    const read = await lists.runRowsFor(list.id, mapping)
    expect(read).toHaveLength(rows.length)
    expect(read[0]).toMatchObject({
      key: `${list.id}:0`,
      index: 0,
      lead: { first: 'Jane', last: 'Doe', domain: 'acme.com' },
      answers: { email: 5, phone: 6 },
      skip: false,
    })
    // Rows enriched before answers were kept: an email was asked, no phone was found.
    expect(Object.keys(read[7]!.answers ?? {})).toEqual(['email'])
    expect(read[1]!.answers).toBeUndefined()
    expect(read.filter((row) => row.skip).map((row) => row.index)).toEqual([4, 8])
  })

  it('tells what the library holds about people, per kind of data', async () => {
    await putContacts(database, [
      { ...contact('kim park@known.io'), email: 'kim@known.io', updatedAt: 1_000 },
      { ...contact('ann lee@known.io'), answers: { phone: 2_000 } },
      contact('nobody here@known.io'),
    ])
    const known = await lists.libraryKnowledge([
      'kim park@known.io',
      'ann lee@known.io',
      'nobody here@known.io',
      '',
    ])
    expect(known.get('kim park@known.io')).toEqual({
      contactId: 'n:kim park@known.io',
      answers: { email: 1_000 },
    })
    expect(known.get('ann lee@known.io')?.answers).toEqual({ phone: 2_000 })
    // A record that holds nothing answered is no answer.
    expect(known.has('nobody here@known.io')).toBe(false)
  })

  it('stores a parsed file with its issues found on the way', async () => {
    const list = await lists.createList({ name: 'People', source, columns, mapping })
    const text =
      'First,Last,Website,LinkedIn,Notes\nJane,Doe,acme.com,,\nJane,Doe,www.acme.com,,dup\nBob,Ray,gmail.com,,\n'
    async function* bytes() {
      yield new TextEncoder().encode(text)
    }
    const stored = await storeRows(
      bytes(),
      { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 5 },
      { listId: list.id, mapping },
      lists,
    )
    expect(stored.parse.rows).toBe(3)
    expect(stored.validation.counts.duplicate).toBe(1)
    expect(stored.validation.counts.personal_domain).toBe(1)
    expect((await rowAt(database, list.id, 1))?.issues).toEqual(['duplicate'])
  })

  it('stores an import’s blocks with the file’s text as it read, and reads back every cell of every row', async () => {
    const list = await lists.createList({ name: 'People', source, columns, mapping })
    // 2,300 rows: plain ones, a short and a long row, a quoted cell with a comma and a line break
    // (in a chunk of its own, through PapaParse), and in block 1 a cell too long to pack.
    const rows = Array.from({ length: 2_300 }, (_, i) => [`F${i}`, `Zoë ${i}`, `c${i}.com`, '', `note ${i}`])
    rows[5] = ['Short', 'Row', 's.com', '', '']
    rows[6] = ['Long', 'Row', 'l.com', '', 'kept', 'past the header']
    rows[1_500]![4] = 'x'.repeat(60_000)
    const lines = rows.map((row, i) => (i === 5 ? 'Short,Row,s.com' : row.join(',')))
    lines[2_200] = `F2200,"Zoë, 2200",c2200.com,,"two\nlines"`
    rows[2_200] = ['F2200', 'Zoë, 2200', 'c2200.com', '', 'two\nlines']
    const text = 'First,Last,Website,LinkedIn,Notes\n' + lines.join('\n') + '\n'
    async function* bytes() {
      const all = new TextEncoder().encode(text)
      for (let at = 0; at < all.length; at += 16_384) yield all.slice(at, at + 16_384)
    }
    const stored = await storeRows(
      bytes(),
      { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 5 },
      { listId: list.id, mapping },
      lists,
    )
    expect(stored.parse.rows).toBe(2_300)
    expect(stored.parse.ragged).toMatchObject({ short: 1, long: 1 })
    const blocks = (
      await database.listBlocks.bulkGet([0, 1, 2].map((block) => [list.id, block] as [string, number]))
    ).map((block) => block!)
    // Blocks 0 and 2 keep the file's text, each cell followed by its delimiter or line break; block 1
    // holds the cell too long for a packed block, and is stored as rows.
    expect(
      blocks.map((block) => ('separated' in block ? 'separated' : 'layout' in block ? 'packed' : 'rows')),
    ).toEqual(['separated', 'rows', 'separated'])
    expect((blocks[0] as { text: string }).text.startsWith('F0,Zoë 0,c0.com,,note 0\nF1,')).toBe(true)
    const read = (await allRows(database, list.id)).map((row) => row.values)
    rows[5] = ['Short', 'Row', 's.com', '', '']
    expect(read).toEqual(rows)
  })

  describe('an import interrupted and taken up again', () => {
    // 2,500 people, the last 100 again (duplicates of the first 100): batches of 700 cross blocks.
    const people = Array.from({ length: 2_600 }, (_, i) => [
      `F${i % 2_500}`,
      `L${i % 2_500}`,
      `c${i % 2_500}.com`,
      '',
      '',
    ])
    const text = 'First,Last,Website,LinkedIn,Notes\n' + people.map((row) => row.join(',')).join('\n')
    const options = { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 5 }
    async function* bytesOf(content: string) {
      const all = new TextEncoder().encode(content)
      for (let at = 0; at < all.length; at += 4_096) yield all.slice(at, at + 4_096)
    }

    /** Imports until `stopAfter` batches are written, as a window closed mid-import leaves it. */
    async function interrupted(stopAfter: number) {
      const list = await lists.createList({ name: 'People', source, columns, mapping })
      const stop = new AbortController()
      let batches = 0
      const cut = storeRows(
        bytesOf(text),
        options,
        { listId: list.id, mapping },
        {
          knownIdentities: lists.knownIdentities,
          appendRows: async (...args) => {
            // The batch being written is stored; the next is never read.
            if (++batches === stopAfter) stop.abort()
            await lists.appendRows(...args)
          },
        },
        { batchSize: 700, signal: stop.signal },
      )
      await expect(cut).rejects.toMatchObject({ code: 'cancelled' })
      return list
    }

    it('stores every row once, from where it stopped, and counts its checks over the whole file', async () => {
      const list = await interrupted(2)
      const soFar = await lists.importedSoFar(list.id)
      expect(soFar).toEqual({ rows: 1_400, last: ['F1399', 'L1399', 'c1399.com', '', ''] })

      const written: number[] = []
      const stored = await storeRows(
        bytesOf(text),
        options,
        { listId: list.id, mapping, resume: soFar },
        {
          knownIdentities: lists.knownIdentities,
          appendRows: async (listId, startIndex, rows, issues, cells) => {
            written.push(startIndex, rows.length)
            await lists.appendRows(listId, startIndex, rows, issues, cells)
          },
        },
        { batchSize: 700 },
      )
      // Nothing before row 1,400 is written again.
      expect(written).toEqual([1_400, 700, 2_100, 500])
      expect(stored.parse.rows).toBe(2_600)
      expect(stored.validation.rows).toBe(2_600)
      expect(stored.validation.counts.duplicate).toBe(100)

      await lists.finishImport(list.id, stored.parse.rows)
      const rows = await allRows(database, list.id)
      expect(rows.map((row) => row.index)).toEqual(people.map((_, i) => i))
      expect(rows.map((row) => row.values)).toEqual(people)
      expect(rows[2_550]!.issues).toEqual(['duplicate'])
      expect(rows.filter((row) => row.issues.includes('duplicate'))).toHaveLength(100)
      const pending = await database.facetCounts.get([list.id, 'status', 'pending'])
      expect(pending?.count).toBe(2_600)
    })

    it('refuses a file that no longer reads as it did, and one that has fewer rows, keeping what was read', async () => {
      const list = await interrupted(1)
      const soFar = await lists.importedSoFar(list.id)
      expect(soFar.rows).toBe(700)
      const go = (content: string) =>
        storeRows(bytesOf(content), options, { listId: list.id, mapping, resume: soFar }, lists, {
          batchSize: 700,
        })

      await expect(go(text.replace('F699,L699', 'F699,Changed'))).rejects.toMatchObject({
        code: 'changed_file',
        message: expect.stringContaining('row 700 reads differently now'),
      })
      const shorter = text.split('\n').slice(0, 301).join('\n')
      await expect(go(shorter)).rejects.toMatchObject({
        code: 'changed_file',
        message: expect.stringContaining('it has 300 rows now, fewer than the 700 read before'),
      })
      expect(await lists.importedSoFar(list.id)).toEqual(soFar)
    })

    it('takes up an import that stopped before it stored a row from the first row', async () => {
      const list = await lists.createList({ name: 'People', source, columns, mapping })
      const soFar = await lists.importedSoFar(list.id)
      expect(soFar).toEqual({ rows: 0, last: null })
      const stored = await storeRows(
        bytesOf(text),
        options,
        { listId: list.id, mapping, resume: soFar },
        lists,
      )
      expect(stored.parse.rows).toBe(2_600)
      expect(await allRows(database, list.id)).toHaveLength(2_600)
    })
  })

  it('makes a list from records in memory', async () => {
    const list = await lists.createListFromRecords(
      'Search',
      ['First', 'Last', 'Domain'],
      [
        ['Jane', 'Doe', 'acme.com'],
        ['Jo', 'Ng', 'beta.io', 'extra'],
      ],
      { first_name: 0, last_name: 1, company_domain: 2 },
      { ...source, fileName: 'Lead search' },
    )
    expect(await database.lists.get(list.id)).toMatchObject({ state: 'ready', rowCount: 2 })
    expect((await rowAt(database, list.id, 1))?.values).toEqual(['Jo', 'Ng', 'beta.io'])
  })
})
