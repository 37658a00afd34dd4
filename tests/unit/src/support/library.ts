import { contactsAt, contactById } from '@/db/library-query'
import { contactIndex, contactTables, countContacts, writeContacts } from '@/db/library-contacts'
import type { LeadkeeperDb } from '@/db/schema'
import type { ContactRecord } from '@/db/records'

/** Reading and changing the library's people in tests, through the same block code the app uses. */

export { contactById, countContacts }

/** Every person of the library, newest first. */
export function allContacts(database: LeadkeeperDb): Promise<ContactRecord[]> {
  return contactsAt(0, Number.MAX_SAFE_INTEGER, database)
}

/** Puts records as they are: a known id in its slot, a new one after the others. */
export async function putContacts(database: LeadkeeperDb, records: ContactRecord[]): Promise<void> {
  await database.transaction('rw', contactTables(database), async () => {
    const index = await contactIndex(database)
    const bySlot = new Map<number, ContactRecord>()
    let next = index.size
    for (const record of records) bySlot.set(index.slotOfId(record.id) ?? next++, record)
    await writeContacts(database, index, bySlot, new Map())
  })
}
