export type ImportErrorCode =
  | 'empty'
  | 'binary'
  | 'no_rows'
  | 'unterminated_quote'
  | 'line_too_long'
  | 'too_many_columns'
  | 'storage'
  | 'cancelled'
  | 'workbook'
  /** An interrupted import taken up again with a file that no longer reads as it did. */
  | 'changed_file'
  /** A file to add to a list none of whose columns is one of the list's. */
  | 'no_match'
  /** A list that cannot take rows now (a run of it goes on). */
  | 'busy'

/** A file that cannot be imported: `message` tells the user what is wrong and, when known, where. */
export class ImportError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    message: string,
    readonly line?: number,
  ) {
    super(message)
    this.name = 'ImportError'
  }
}

export function isImportError(error: unknown): error is ImportError {
  return error instanceof ImportError
}

/** Why an import stopped, as a worker posts it and the dialog shows it. */
export interface ImportProblem {
  code: ImportErrorCode | 'internal'
  message: string
  line?: number
}

/** Any error thrown while reading a list, as an ImportProblem: an ImportError as it is, anything else as internal. */
export function importProblem(error: unknown): ImportProblem {
  if (isImportError(error))
    return { code: error.code, message: error.message, ...(error.line ? { line: error.line } : {}) }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}
