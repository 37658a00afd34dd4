import type { ColumnMapping } from '@/db/schema'
import type { ListOperations } from '@/db/lists'
import { ImportError } from '@domain/read/errors'
import { parseRows, type ParseControl, type ParseOptions, type ParseSummary } from '@domain/read/parse'
import { createValidator, type ValidationSummary } from '@domain/validation'

export interface StoredImport {
  parse: ParseSummary
  validation: ValidationSummary
}

/**
 * Parses a file into a list that `createList` made: each batch is checked (issues found while
 * reading, so a million rows are not read twice) and written in one transaction. One write stays
 * in flight while the next batch is parsed, so reading and storage overlap.
 */
export async function storeRows(
  source: AsyncIterable<Uint8Array>,
  options: ParseOptions,
  target: { listId: string; mapping: ColumnMapping },
  lists: Pick<ListOperations, 'appendRows' | 'knownIdentities'>,
  control: ParseControl = {},
): Promise<StoredImport> {
  const validator = createValidator(target.mapping, lists.knownIdentities)
  let writing: Promise<void> = Promise.resolve()
  let writeError: unknown = null
  const settle = async (): Promise<void> => {
    await writing
    if (writeError !== null) throw storageError(writeError)
  }
  try {
    const parse = await parseRows(
      source,
      options,
      async ({ startIndex, rows }) => {
        const issues = await validator.check(startIndex, rows)
        await settle()
        writing = lists.appendRows(target.listId, startIndex, rows, issues).catch((error: unknown) => {
          writeError = error
        })
      },
      control,
    )
    await settle()
    return { parse, validation: validator.summary() }
  } finally {
    // Never leave a write running behind a failure: the caller deletes the list next.
    await writing
  }
}

function storageError(error: unknown): unknown {
  const name = error instanceof Error ? error.name : ''
  const inner = (error as { inner?: { name?: string } } | null)?.inner?.name ?? ''
  if (name === 'QuotaExceededError' || inner === 'QuotaExceededError') {
    return new ImportError(
      'storage',
      'There is not enough free disk space to store this list. Free some space and import it again.',
    )
  }
  return error
}
