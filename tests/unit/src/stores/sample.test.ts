// @vitest-environment node
// The backend runs here too, and it needs Node's own AbortSignal, which a DOM environment replaces.
import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { countContacts } from '@/db/library-contacts'
import { db } from '@/db/schema'
import { useImportsStore } from '@/stores/imports'
import { useSampleStore } from '@/stores/sample'
import { useSearchesStore } from '@/stores/searches'
import { storeTestBed } from '../support/window'

/**
 * "Try a sample list" over the real backend and a time-scaled sandbox, Dexie on fake-indexeddb: the
 * sample's search is brought home before the import dialog gets the sample's file.
 */

const t = storeTestBed({ clear: true })

describe('the sample store', () => {
  it('runs the sample search into the library, then hands the sample to the import dialog', async () => {
    t.reopen()
    const sample = useSampleStore()
    const imports = useImportsStore()
    const trying = sample.trySample()
    expect(sample.preparing).toBe(true)
    await trying
    expect(sample.preparing).toBe(false)

    const [run] = useSearchesStore().runs
    expect(run).toMatchObject({ kind: 'lead', state: 'done' })
    expect(run!.request.label).toMatch(/^Sample: people at /)
    // Its people are in the library before the file is offered: the import's check will know them.
    expect(run!.found).toBeGreaterThan(0)
    expect(await countContacts(db)).toBe(run!.found)

    const file = imports.requested!
    expect(file.name).toBe('sandbox-sample.csv')
    const text = await file.text()
    expect(text.split('\r\n')[0]).toBe('First Name,Last Name,Company,Website,Job Title,City,Notes')
    expect(text.split('\r\n').filter((line) => line !== '').length).toBeGreaterThan(200)
  })
})
