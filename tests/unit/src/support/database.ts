import { afterEach, beforeEach } from 'vitest'
import * as listFunctions from '@/db/lists'
import type { ColumnMapping, ListRecord, RowIssue } from '@/db/records'
import type { BatchCells } from '@domain/read/parse'
import type { RunRequest } from '@domain/run'
import { LeadkeeperDb } from '@/db/schema'
import { knownToLibrary, libraryKnowledgeOf } from '@/db/library-client'

/** The list functions of `src/db/lists.ts` on a test's own database, which each takes last. */
export function listsOn(database: LeadkeeperDb) {
  const on = listFunctions
  return {
    createList: (input: listFunctions.NewList) => on.createList(input, database),
    appendRows: (
      listId: string,
      start: number,
      rows: string[][],
      issues?: RowIssue[][],
      cells?: BatchCells,
    ) => on.appendRows(listId, start, rows, issues, cells, database),
    importedSoFar: (listId: string) => on.importedSoFar(listId, database),
    finishImport: (listId: string, rowCount: number, widest = 0) =>
      on.finishImport(listId, rowCount, widest, database),
    deleteList: (listId: string) => on.deleteList(listId, database),
    updateMapping: (listId: string, mapping: ColumnMapping) => on.updateMapping(listId, mapping, database),
    saveMappingFor: (columns: string[], mapping: ColumnMapping) =>
      on.saveMappingFor(columns, mapping, database),
    savedMappingFor: (columns: string[]) => on.savedMappingFor(columns, database),
    knownIdentities: knownToLibrary(database),
    validateList: (listId: string, mapping: ColumnMapping, options: listFunctions.ValidateOptions = {}) =>
      on.validateList(listId, mapping, knownToLibrary(database), options, database),
    setSkip: (listId: string, issues: RowIssue[], skip: boolean) =>
      on.setSkip(listId, issues, skip, database),
    runRowsFor: (listId: string, mapping: ColumnMapping) => on.runRowsFor(listId, mapping, database),
    libraryKnowledge: libraryKnowledgeOf(database),
    planRun: (listId: string, mapping: ColumnMapping, request: RunRequest) =>
      on.planRun(listId, mapping, request, libraryKnowledgeOf(database), database),
    createListFromRecords: (
      name: string,
      columns: string[],
      rows: string[][],
      mapping: ColumnMapping,
      source: ListRecord['source'],
    ) => on.createListFromRecords(name, columns, rows, mapping, source, knownToLibrary(database), database),
  }
}

export type TestLists = ReturnType<typeof listsOn>

/**
 * Before each test, a database of its own (fake IndexedDB) and the list functions on it, handed to
 * `use`; closed and deleted after the test.
 */
export function eachTestDatabase(use: (made: { database: LeadkeeperDb; lists: TestLists }) => void): void {
  let database: LeadkeeperDb | undefined
  beforeEach(() => {
    database = new LeadkeeperDb('t-' + crypto.randomUUID())
    use({ database, lists: listsOn(database) })
  })
  afterEach(async () => {
    database?.close()
    await database?.delete()
  })
}
