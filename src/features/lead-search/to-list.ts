import type { ListRecord } from '@/db/records'
import { useListsStore } from '@/stores/lists'
import { leadsAsTable, leadsForList } from './table'

/** A new list of the leads found, ready to enrich; returns its id. */
export async function saveLeadsAsList(
  name: string,
  leads: readonly Record<string, unknown>[],
): Promise<string> {
  const list = await useListsStore().createFromTable(name, leadsAsTable(leads))
  return list.id
}

/** Appends the leads to an existing list, filling the columns its mapping knows. */
export function addLeadsToList(listId: string, leads: readonly Record<string, unknown>[]): Promise<number> {
  return useListsStore().appendToList(listId, (list) => leadsForList(leads, list.columns, list.mapping))
}

/** The lists the leads can be added to: a list being imported or enriched takes them once it is idle. */
export function listsToAddTo(): Promise<ListRecord[]> {
  return useListsStore().idleLists()
}
