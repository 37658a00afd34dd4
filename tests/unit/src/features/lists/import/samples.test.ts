import 'fake-indexeddb/auto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { suggestMapping } from '@domain/mapping'
import { blobChunks } from '@domain/read/parse'
import { buildPreview } from '@domain/read/preview'
import { storeRows } from '@/db/import-rows'
import { skippedRows } from '@domain/validation'
import { eachTestDatabase, type TestLists } from '../../../support/database'

const sample = (name: string) => new Uint8Array(readFileSync(`resources/samples/${name}`))

let lists: TestLists

eachTestDatabase((made) => ({ lists } = made))

async function importSample(
  name: string,
  fix: (mapping: ReturnType<typeof suggestMapping>) => void = () => {},
) {
  const bytes = sample(name)
  const preview = buildPreview(bytes, true)
  const mapping = suggestMapping(preview.columns, preview.sample)
  fix(mapping)
  const list = await lists.createList({
    name,
    source: {
      fileName: name,
      size: bytes.length,
      encoding: preview.encoding,
      delimiter: preview.delimiter,
      hasHeader: true,
    },
    columns: preview.columns,
    mapping,
  })
  const options = {
    encoding: preview.encoding,
    delimiter: preview.delimiter,
    hasHeader: preview.hasHeader,
    width: preview.columns.length,
  }
  // Small slices so rows and accented characters straddle chunk boundaries.
  const stored = await storeRows(
    blobChunks(new Blob([bytes]), 97),
    options,
    { listId: list.id, mapping },
    lists,
  )
  return { preview, mapping, stored }
}

describe('the sample files', () => {
  it('imports the clean sample without any issue', async () => {
    const { preview, mapping, stored } = await importSample('contacts-sample.csv')
    expect(preview).toMatchObject({ encoding: 'utf-8', delimiter: ',', hasHeader: true })
    expect(mapping).toEqual({ first_name: 0, last_name: 1, company_name: 2, company_domain: 3 })
    expect(stored.parse.rows).toBe(50)
    expect(stored.validation.clean).toBe(50)
  })

  it('reads the messy sample and flags what is wrong with it', async () => {
    const { preview, mapping, stored } = await importSample('contacts-messy.csv', (mapping) => {
      mapping.email = 3
    })
    expect(preview).toMatchObject({ encoding: 'windows-1252', delimiter: ';', hasHeader: true })
    expect(preview.columns).toEqual(['Nom complet', 'Société', 'Site web', 'Adresse pro', 'Ville', 'Notes'])
    expect(preview.rows[0]![0]).toBe('René Müller')
    expect(mapping).toEqual({ full_name: 0, company_name: 1, website: 2, email: 3 })
    expect(stored.parse.rows).toBe(24)
    expect(stored.parse.ragged).toMatchObject({ short: 1, long: 1 })
    expect(stored.validation.counts).toMatchObject({
      missing_name: 1,
      missing_domain: 0,
      malformed_domain: 2,
      personal_domain: 3,
      duplicate: 2,
      known: 0,
    })
    // Duplicates are never skipped: they come back with their twin's result, charged once.
    expect(skippedRows(stored.validation, () => true)).toBe(6)
    expect(skippedRows(stored.validation, () => false)).toBe(0)
  })
})
