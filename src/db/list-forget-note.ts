import type { LeadkeeperDb } from './schema'

/**
 * Notes in a list's history that a forget cleared these rows' answers (`forgetContact`), labelled
 * as the History panel shows it. Called inside the forget's transaction, once for each list it
 * touched. An entry that cannot be undone: what a forget removed is gone.
 *
 * The list's history is not stored yet: until it is, the forget is noted nowhere, and this is the
 * one place that records it once it is.
 */
export async function noteForgotten(
  _listId: string,
  _rows: readonly number[],
  _label: string,
  _database: LeadkeeperDb,
): Promise<void> {}
