import { afterEach, beforeEach } from 'vitest'
import { listOperations, type ListOperations } from '@/db/lists'
import { LeadkeeperDb } from '@/db/schema'

/**
 * Before each test, a database of its own (fake IndexedDB) and the list operations over it, handed
 * to `use`; closed and deleted after the test.
 */
export function eachTestDatabase(
  use: (made: { database: LeadkeeperDb; lists: ListOperations }) => void,
): void {
  let database: LeadkeeperDb | undefined
  beforeEach(() => {
    database = new LeadkeeperDb('t-' + crypto.randomUUID())
    use({ database, lists: listOperations(database) })
  })
  afterEach(async () => {
    database?.close()
    await database?.delete()
  })
}
