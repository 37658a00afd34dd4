import { db } from '@/db/schema'
import type { ListRecord } from '@/db/records'
import { appendRows, createListFromRecords, finishImport, validateList } from '@/db/lists'
import { leadsAsTable, leadsForList } from './table'

/** A new list of the leads found, ready to enrich; returns its id. */
export async function saveLeadsAsList(
  name: string,
  leads: readonly Record<string, unknown>[],
): Promise<string> {
  const table = leadsAsTable(leads)
  const list = await createListFromRecords(name, table.columns, table.rows, table.mapping, {
    fileName: `${name}.csv`,
    size: 0,
    encoding: 'utf-8',
    delimiter: ',',
    hasHeader: true,
  })
  return list.id
}

/** Appends the leads to an existing list, filling the columns its mapping knows. */
export async function addLeadsToList(
  listId: string,
  leads: readonly Record<string, unknown>[],
): Promise<number> {
  const list = await db.lists.get(listId)
  if (!list) throw new Error('That list no longer exists.')
  const rows = leadsForList(leads, list.columns, list.mapping)
  await appendRows(listId, list.rowCount, rows)
  await finishImport(listId, list.rowCount + rows.length)
  // The new rows get their issues (duplicates, people the library already knows) like imported ones.
  await validateList(listId, list.mapping)
  return rows.length
}

export async function listsToAddTo(): Promise<ListRecord[]> {
  const lists = await db.lists.orderBy('updatedAt').reverse().toArray()
  // A list being imported or enriched is not touched; it can take the leads once it is idle.
  return lists.filter((list) => list.state === 'ready' || list.state === 'done')
}
