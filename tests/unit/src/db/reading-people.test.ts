import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { readingPeople } from '@/db/library-contacts'
import { LeadkeeperDb } from '@/db/schema'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())

/** A read as the index's are: an async function awaiting one of its own between two reads. */
async function twoReads(database: LeadkeeperDb): Promise<string> {
  const inner = async () => database.peopleKeys.get(0)
  await database.contactRevs.get('contacts')
  await inner()
  await database.peopleBlocks.get(0)
  return 'read'
}

describe('a read of the people', () => {
  it('keeps its transaction across the awaits of the work it is given', async () => {
    const database = freshDb()
    await expect(readingPeople(database, () => twoReads(database))).resolves.toBe('read')
    database.close()
  })
})
