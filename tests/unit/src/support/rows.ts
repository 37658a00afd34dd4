import { blockTables, eachBlock, putRows, rowAt } from '@/db/blocks'
import type { LeadkeeperDb } from '@/db/schema'
import type { RowRecord } from '@/db/records'

/** Reading and changing stored rows in tests, through the same block code the app uses. */

export { rowAt }

/** Every row of a list in import order, or of every list. */
export async function allRows(database: LeadkeeperDb, listId?: string): Promise<RowRecord[]> {
  const ids = listId
    ? [listId]
    : [...new Set((await database.listBlocks.toArray()).map((block) => block.listId))]
  const out: RowRecord[] = []
  for (const id of ids) await eachBlock(database, id, (rows) => void out.push(...rows))
  return out
}

export async function updateRow(
  database: LeadkeeperDb,
  listId: string,
  index: number,
  changes: Partial<RowRecord>,
): Promise<void> {
  const row = await rowAt(database, listId, index)
  if (!row) throw new Error(`no row ${index} in ${listId}`)
  await database.transaction('rw', blockTables(database), async () =>
    putRows(database, listId, [{ ...row, ...changes }]),
  )
}
