import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { libraryOf } from '@/db/library-client'
import { db } from '@/db/schema'
import { useLibraryStore } from '@/stores/library'
import { useLibraryOutwardStore } from '@/stores/library-outward'
import { notify } from '@/ui/notify'
import { ada, libraryWorld } from '../support/library-world'

beforeEach(async () => {
  setActivePinia(createPinia())
  await Promise.all(db.tables.map((table) => table.clear()))
  await libraryWorld(db)
  vi.spyOn(notify, 'success').mockImplementation(() => undefined)
  vi.spyOn(notify, 'error').mockImplementation(() => undefined)
  vi.spyOn(notify, 'warning').mockImplementation(() => undefined)
})

afterEach(() => vi.restoreAllMocks())

describe('what leaves the library, from its page', () => {
  it('makes a list of the people the search shows, and only of them', async () => {
    const library = useLibraryStore()
    await library.setContactFacet('country', ['France'])
    const list = await useLibraryOutwardStore().newListFromShown('France')
    const shown = await libraryOf().matchContactIds({ facets: { country: ['France'] } })
    expect(list?.rowCount).toBe(shown.length)
    expect(notify.success).toHaveBeenCalledWith(`Made the list "France" of ${shown.length} people.`)
  })

  it('says why no list was made of a search that shows nobody', async () => {
    await useLibraryStore().setPrefix('zzz')
    expect(await useLibraryOutwardStore().newListFromShown('None')).toBeNull()
    expect(notify.error).toHaveBeenCalledWith(expect.stringContaining('No contact matches this search'))
  })

  it('counts, then forgets a person, and says how many rows it cleared', async () => {
    const outward = useLibraryOutwardStore()
    expect(await outward.contactPlan(ada.id)).toMatchObject({ rows: 2 })
    expect(await outward.forgetContact(ada.id, ada.fullName)).toBe(true)
    expect(notify.success).toHaveBeenCalledWith(
      'Forgot Ada Lovelace, and cleared their answer from 2 list rows.',
    )
    expect(await outward.forgetContact(ada.id, ada.fullName)).toBe(false)
    expect(notify.warning).toHaveBeenCalledWith(
      'Ada Lovelace was not in the library any more: nothing was changed.',
    )
  })
})
