import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { libraryListColumns } from '@/db/library-list'
import { libraryService } from '@/db/library-service'
import { rowsAt } from '@/db/rows'
import type { LeadkeeperDb } from '@/db/schema'
import { eachTestDatabase, type TestLists } from '../support/database'
import { ada, libraryWorld } from '../support/library-world'

let database: LeadkeeperDb
let lists: TestLists
eachTestDatabase((made) => ({ database, lists } = made))

describe('a new list from the people the library shows', () => {
  it('holds the people in the order shown, mapped to be sent, each linked to their record', async () => {
    await libraryWorld(database)
    const library = libraryService(database)
    const search = { facets: { country: ['France'] } }
    const shown = await library.matchContactIds(search)
    const list = await library.createListFromContacts('France', search)
    expect(list).toMatchObject({
      name: 'France',
      state: 'ready',
      rowCount: shown.length,
      columns: libraryListColumns,
    })
    expect(list.mapping).toMatchObject({
      first_name: 0,
      last_name: 1,
      company_domain: 5,
      email: 6,
      network_url: 7,
    })
    const rows = await rowsAt(list.id, [...shown.keys()], database)
    expect(rows.map((row) => row.contactId)).toEqual(shown)
    const adaRow = rows.find((row) => row.contactId === ada.id)!
    expect(adaRow.values.slice(0, 3)).toEqual(['Ada', 'Lovelace', ada.fullName])
    expect(adaRow.values[6]).toBe(ada.email)
    expect(adaRow.values[7]).toBe(ada.networkUrl)
    // Her answers come from the library, not charged, and say where they came from.
    expect(adaRow.status).toBe('found')
    expect(adaRow.origins?.email).toMatchObject({ via: 'library', contactId: ada.id })
    expect(adaRow.result?.['contact_email_address']).toBe(ada.email)
  })

  it('is ready to enrich further: a run for phones after emails asks only the phones nobody holds', async () => {
    await libraryWorld(database)
    const library = libraryService(database)
    const list = await library.createListFromContacts('Everyone', {})
    const plan = await lists.planRun(list.id, list.mapping, {
      email: true,
      phone: true,
      catchAll: false,
      now: 10_000,
    })
    // Odd rows of "Fair" were asked emails alone; even ones and Ada emails and phones; of the two
    // people a search found, one came with an email and a phone, the other with neither.
    const sent = new Map(plan.rows.map((row) => [row.key, row.kinds]))
    const rows = await rowsAt(
      list.id,
      Array.from({ length: list.rowCount }, (_, i) => i),
      database,
    )
    const person = (id: string) => rows.find((row) => row.contactId === id)!
    expect(sent.get(`${list.id}:${person('c:1001').index}`)).toEqual(['phone'])
    expect(sent.has(`${list.id}:${person('c:1002').index}`)).toBe(false)
    expect(sent.has(`${list.id}:${person(ada.id).index}`)).toBe(false)
    expect(sent.has(`${list.id}:${person('c:1100').index}`)).toBe(false)
    expect(sent.get(`${list.id}:${person('c:1101').index}`)).toEqual(['email', 'phone'])
    expect(person('c:1101').status).toBe('pending')
  })

  it('refuses a search that shows nobody, and makes no list', async () => {
    await libraryWorld(database)
    await expect(libraryService(database).createListFromContacts('None', { prefix: 'zzz' })).rejects.toThrow(
      'No contact matches',
    )
    expect((await database.lists.toArray()).map((list) => list.name).sort()).toEqual(['Fair', 'Second'])
  })
})
