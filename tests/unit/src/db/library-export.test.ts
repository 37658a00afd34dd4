import 'fake-indexeddb/auto'
import Papa from 'papaparse'
import { describe, expect, it } from 'vitest'
import { exportLibrary, exportLibraryRows, shareBlocks } from '@/db/library-export'
import { libraryService } from '@/db/library-service'
import type { LeadkeeperDb } from '@/db/schema'
import { eachTestDatabase } from '../support/database'
import { ada, libraryWorld } from '../support/library-world'
import { upsertContacts } from '@/db/library-ingest'

let database: LeadkeeperDb
eachTestDatabase((made) => (database = made.database))

const parsed = async (blob: Blob) =>
  Papa.parse<Record<string, string>>((await blob.text()).replace(/^\uFEFF/, ''), {
    header: true,
    skipEmptyLines: true,
  }).data

describe('exporting the library', () => {
  it('writes the people a search shows, newest first, with the columns that identify them', async () => {
    await libraryWorld(database)
    const search = { prefix: 'buyer', facets: { country: ['Spain'] } }
    // "buyer" starts no word of a person: a job title is not searched. A last name is.
    expect((await exportLibrary({ table: 'contacts', search, format: 'csv' }, { database })).rows).toBe(0)
    const file = await exportLibrary(
      { table: 'contacts', search: { facets: { country: ['Spain'] } }, format: 'csv' },
      { database },
    )
    expect(file.fileName).toBe('Library contacts.csv')
    const shown = await libraryService(database).matchContactIds({ facets: { country: ['Spain'] } })
    const rows = await parsed(file.blob)
    expect(rows.map((row) => `c:${row['Contact id']}`)).toEqual(shown)
    expect(file.rows).toBe(shown.length)
    expect(rows[0]).toMatchObject({
      'Email status': expect.any(String),
      Country: 'Spain',
      'Found by': expect.any(String),
    })
    const one = await exportLibrary(
      { table: 'contacts', search: { prefix: 'lovelace' }, format: 'json' },
      { database },
    )
    const [record] = JSON.parse(await one.blob.text()) as Record<string, string>[]
    expect(record).toMatchObject({
      Name: ada.fullName,
      'First name': 'Ada',
      'Last name': 'Lovelace',
      Email: ada.email,
      Phone: ada.phone,
      'Company domain': 'engines.io',
      'Network URL': ada.networkUrl,
      'Contact id': '1003',
      'Found by': 'Fair, Second',
    })
  })

  it("writes a company's people alone, searched within it, as its page shows them, and to Excel", async () => {
    await libraryWorld(database)
    const library = libraryService(database)
    const atEngines = { domain: 'Engines.io' }
    const shown = await library.matchContactIds(atEngines)
    expect(shown.length).toBeGreaterThan(0)
    const everyone = await library.matchContactIds({})
    expect(shown.length).toBeLessThan(everyone.length)
    const file = await exportLibrary({ table: 'contacts', search: atEngines, format: 'csv' }, { database })
    const rows = await parsed(file.blob)
    expect(rows.map((row) => `c:${row['Contact id']}`)).toEqual(shown)
    expect(rows.every((row) => row['Company domain'] === 'engines.io')).toBe(true)
    // Searched within the company: its words and its domain both hold.
    const ada = await exportLibrary(
      { table: 'contacts', search: { ...atEngines, prefix: 'lovelace' }, format: 'csv' },
      { database },
    )
    expect((await parsed(ada.blob)).map((row) => row['Last name'])).toEqual(['Lovelace'])
    const sheet = await exportLibrary({ table: 'contacts', search: atEngines, format: 'xlsx' }, { database })
    expect(sheet.rows).toBe(shown.length)
  })

  it("writes every person once in the library's order from shares of the blocks, as the workers do", async () => {
    // 260 people: three blocks of a hundred, the last one part full.
    await upsertContacts(
      Array.from({ length: 260 }, (_, i) => ({ contact_id: i, contact_full_name: `Ann Ek${i}` })),
      { kind: 'list', id: 'l', label: 'L', at: 1 },
      database,
    )
    expect(shareBlocks(3, { at: 0, of: 2 })).toEqual({ from: 1, to: 3 })
    expect(shareBlocks(3, { at: 1, of: 2 })).toEqual({ from: 0, to: 1 })
    const request = { table: 'contacts' as const, search: {}, format: 'csv' as const }
    const parts = await Promise.all(
      [0, 1].map((at) => exportLibraryRows(request, { at, of: 2 }, { database })),
    )
    const whole = await exportLibraryRows(request, undefined, { database })
    expect(parts.map((part) => part.rows)).toEqual([160, 100])
    expect((await parts[0]!.blob.text()) + (await parts[1]!.blob.text())).toBe(await whole.blob.text())
    expect((await whole.blob.text()).split('\r\n')[0]).toMatch(/^Ann Ek259,/)
  })

  it('writes companies in name order with their facets, and to Excel', async () => {
    await libraryWorld(database)
    const csv = await exportLibrary(
      { table: 'companies', search: { facets: { industry: ['Software'] } }, format: 'csv' },
      { database },
    )
    const rows = await parsed(csv.blob)
    expect(rows.map((row) => row['Name'])).toEqual(['Mu', 'Zeta'])
    expect(rows[0]).toMatchObject({
      Domain: 'mu.example',
      Industry: 'Software',
      Employees: '12',
      'Found by': 'Makers',
    })
    const sheet = await exportLibrary({ table: 'companies', search: {}, format: 'xlsx' }, { database })
    expect(sheet.fileName).toBe('Library companies.xlsx')
    expect(sheet.rows).toBe(await database.companies.count())
  })

  it('leaves a forgotten person out', async () => {
    await libraryWorld(database)
    await libraryService(database).forgetContact(ada.id)
    const file = await exportLibrary({ table: 'contacts', search: {}, format: 'csv' }, { database })
    expect(await file.blob.text()).not.toContain('Lovelace')
    expect(file.rows).toBe((await libraryService(database).matchContactIds({})).length)
  })
})
