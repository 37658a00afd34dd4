import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { readingPeople } from '@/db/library-contacts'
import { LeadkeeperDb } from '@/db/schema'

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())
const elsewhere = () => new Promise((resolve) => setTimeout(resolve, 5))

describe('a read of the people', () => {
  it('runs again once when its transaction committed before the read ended, and answers', async () => {
    const database = freshDb()
    let runs = 0
    const answer = await readingPeople(database, async () => {
      runs++
      // The first run leaves its transaction idle, which commits under it: the scope ends after.
      if (runs === 1) {
        await elsewhere()
        return 'too late'
      }
      return (await database.contactRevs.get('contacts')) ?? 'read'
    })
    expect(runs).toBe(2)
    expect(answer).toBe('read')
    database.close()
  })

  it('gives up after the second time, with the error', async () => {
    const database = freshDb()
    let runs = 0
    const read = readingPeople(database, async () => {
      runs++
      await elsewhere()
      return 'too late'
    })
    await expect(read).rejects.toMatchObject({ name: 'PrematureCommitError' })
    expect(runs).toBe(2)
    database.close()
  })

  it('passes any other error on at once', async () => {
    const database = freshDb()
    let runs = 0
    const read = readingPeople(database, async () => {
      runs++
      throw new RangeError('not this')
    })
    await expect(read).rejects.toThrow('not this')
    expect(runs).toBe(1)
    database.close()
  })
})
