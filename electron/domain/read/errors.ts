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
