import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { contactBlockFrom, storedContactBlock } from '@/db/library-contacts'
import { forgetContact } from '@/db/library-forget'
import type { ContactRecord } from '@/db/records'
import type { LeadkeeperDb } from '@/db/schema'
import { eachTestDatabase } from '../support/database'
import { allContacts } from '../support/library'
import { ada, libraryWorld } from '../support/library-world'

let database: LeadkeeperDb
eachTestDatabase((made) => (database = made.database))

describe("the library's people blocks", () => {
  it('are stored coded and read back as the people written', async () => {
    await libraryWorld(database)
    const people = await allContacts(database)
    expect(people.length).toBeGreaterThan(10)
    const stored = await database.peopleBlocks.toArray()
    for (const block of stored) expect('shape' in block).toBe(true)
    const again = stored.flatMap((block) =>
      contactBlockFrom(block).contacts.filter((person): person is ContactRecord => person !== undefined),
    )
    const byId = (a: ContactRecord, b: ContactRecord) => a.id.localeCompare(b.id)
    expect(again.sort(byId)).toEqual(people.sort(byId))
  })

  it('keep a forgotten slot empty and the people after it in theirs', async () => {
    await libraryWorld(database)
    const before = await allContacts(database)
    const gone = before.find((person) => person.email === ada.email)!
    expect((await forgetContact(gone.id, database)).forgotten).toBe(true)
    const [block] = await database.peopleBlocks.toArray()
    const contacts = contactBlockFrom(block!).contacts
    expect(contacts).toHaveLength(before.length)
    expect(contacts.filter((person) => person === undefined)).toHaveLength(1)
    const ids = (people: (ContactRecord | undefined)[]) =>
      people.flatMap((person) => (person ? [person.id] : [])).sort()
    expect(ids(contacts)).toEqual(ids(before.filter((person) => person.id !== gone.id)))
  })

  it('keep a block whose people cannot be coded as they are', () => {
    const person = { id: 'c:1', seenOn: new Date(0) } as unknown as ContactRecord
    const block = { block: 3, contacts: [person, undefined] }
    expect(storedContactBlock(block)).toBe(block)
    expect(contactBlockFrom(storedContactBlock(block))).toBe(block)
  })
})
