import type { ColumnMapping } from '@/db/records'
import type { ImportedSoFar } from '@/db/lists'
import { ImportError } from '@domain/read/errors'
import {
  blobChunks,
  parseRows,
  type BatchCells,
  type ParseControl,
  type ParseOptions,
  type ParseSummary,
} from '@domain/read/parse'
import { createValidator, type RowIssue, type ValidationSummary } from '@domain/validation'
import { cellsRow, type CellsAt } from './block-shape'
import { prepareBlockRows } from './blocks'
import { nextTurn } from './turns'

export interface StoredImport {
  parse: ParseSummary
  validation: ValidationSummary
}

/** What an import writes rows and checks people through: `lists.ts`, on the app's database or a test's. */
export interface ImportLists {
  appendRows(
    listId: string,
    startIndex: number,
    rows: string[][],
    issues?: RowIssue[][],
    cells?: BatchCells,
  ): Promise<void>
  knownIdentities(identities: string[]): Promise<Set<string>>
}

export interface ImportTarget {
  listId: string
  mapping: ColumnMapping
  /**
   * An interrupted import taken up again: the rows it stored are read and checked again (so the
   * checks count duplicates across the whole file) but not written twice; the file must read, at
   * the last stored row, as it read then.
   */
  resume?: ImportedSoFar
  /** Rows of another file added to the list, in its columns (`list-append.ts`). */
  append?: AppendTarget
}

/** Where an appended file's rows go in the list they are added to. */
export interface AppendTarget {
  /** The list's row the file's first row becomes. */
  from: number
  /** For each column of the file, the list's column its cells go into (`matchColumns`). */
  targets: number[]
  /** How many columns the list has with the file's: each row is made that wide. */
  width: number
}

/**
 * A batch of an appended file's rows in the list's columns; a cell past the file's header goes past
 * the list's columns, named by position as an import names it.
 */
export function placeCells(rows: readonly string[][], append: AppendTarget): string[][] {
  const { targets, width } = append
  return rows.map((cells) => {
    const placed = new Array<string>(Math.max(width, width + cells.length - targets.length)).fill('')
    for (let at = 0; at < cells.length; at++) {
      placed[at < targets.length ? targets[at]! : width + at - targets.length] = cells[at] ?? ''
    }
    return placed
  })
}

/**
 * Where a batch's issues come from: the check run on this thread (`checkHere`), or a check of the
 * same file in another worker (`checkRows` there), whose answers come in the batches' order.
 */
export interface RowChecker {
  check(startIndex: number, rows: string[][]): Promise<RowIssue[][]>
  summary(): Promise<ValidationSummary>
  /** The columns whose cells `check` reads: a row it is given need hold no other. */
  columns: readonly number[]
  /** Notes the people of rows already in the list, which later rows may repeat (`Validator.see`). */
  see?(rows: readonly (readonly string[])[]): void
}

/** The columns a mapping maps: the only cells the rows' check reads. */
const mappedColumns = (mapping: ColumnMapping): number[] =>
  Object.values(mapping).filter((column): column is number => typeof column === 'number')

/** The rows' check: the mapping's rules, duplicates and the library's people (`createValidator`). */
export function checkHere(
  target: Pick<ImportTarget, 'mapping'>,
  lists: Pick<ImportLists, 'knownIdentities'>,
): RowChecker {
  const validator = createValidator(target.mapping, lists.knownIdentities)
  return {
    check: (startIndex, rows) => validator.check(startIndex, rows),
    summary: async () => validator.summary(),
    columns: mappedColumns(target.mapping),
    see: (rows) => validator.see(rows),
  }
}

/**
 * Parses a file and checks every batch (`checkHere`), handing each batch's issues to `onChecked` in
 * order: the half of an import on two threads that checks, while the other half parses the same
 * bytes and stores them (`storeRows` with these issues).
 */
export async function checkRows(
  source: AsyncIterable<Uint8Array>,
  options: ParseOptions,
  target: Pick<ImportTarget, 'mapping'>,
  lists: Pick<ImportLists, 'knownIdentities'>,
  onChecked: (startIndex: number, issues: RowIssue[][]) => void,
  control: ParseControl = {},
): Promise<ValidationSummary> {
  const checker = checkHere(target, lists)
  await parseRows(
    source,
    options,
    async ({ startIndex, rows }) => onChecked(startIndex, await checker.check(startIndex, rows)),
    { ...control, columns: checker.columns },
  )
  return checker.summary()
}

/**
 * Parses a file into a list that `createList` made: each batch is checked (issues found while
 * reading, so a million rows are not read twice; by `checker`, here unless given) and written in
 * one transaction. One write stays in flight while the next batch is parsed, so reading and
 * storage overlap. Only the cells the check reads are made strings; the rows are stored from the
 * file's text as it was read (`BatchCells`). An import taken up again must read, at its last
 * stored row, as it did.
 */
export async function storeRows(
  source: AsyncIterable<Uint8Array>,
  options: ParseOptions,
  target: ImportTarget,
  lists: ImportLists,
  control: ParseControl = {},
  checker: RowChecker = checkHere(target, lists),
): Promise<StoredImport> {
  if (target.append) return storeAppended(source, options, target, target.append, lists, control, checker)
  const stored = target.resume?.rows ?? 0
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
      async ({ startIndex, rows, cells }) => {
        const issues = await checker.check(startIndex, rows)
        if (target.resume) checkSameFile(target.resume, startIndex, rows.length, cells!)
        const from = Math.max(0, stored - startIndex)
        if (from >= rows.length) return
        await settle()
        const fresh = from === 0 ? rows : rows.slice(from)
        const freshIssues = from === 0 ? issues : issues.slice(from)
        const freshCells = from === 0 ? cells : cellsFrom(cells!, from)
        writing = lists
          .appendRows(target.listId, startIndex + from, fresh, freshIssues, freshCells)
          .catch((error: unknown) => {
            writeError = error
          })
      },
      // Only the cells the check reads are cut from the file's text; every cell is stored from it.
      { ...control, columns: checker.columns, keepCells: true },
    )
    if (target.resume && parse.rows < stored) {
      throw changedFile(
        `it has ${parse.rows.toLocaleString('en')} rows now, fewer than the ${stored.toLocaleString('en')} read before`,
      )
    }
    await settle()
    return { parse, validation: await checker.summary() }
  } finally {
    // Never leave a write running behind a failure: the caller deletes the list, or keeps what was
    // read of an import taken up again, next.
    await writing
  }
}

/**
 * `storeRows` of a file added to a list: each batch's cells placed in the list's columns
 * (`placeCells`), checked as rows of the list from `append.from` on (the checker has seen the list's
 * own rows), and written there. Every cell is cut from the file's text, as the rows are stored in
 * another order than the file's.
 */
async function storeAppended(
  source: AsyncIterable<Uint8Array>,
  options: ParseOptions,
  target: ImportTarget,
  append: AppendTarget,
  lists: ImportLists,
  control: ParseControl,
  checker: RowChecker,
): Promise<StoredImport> {
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
        const placed = placeCells(rows, append)
        const issues = await checker.check(append.from + startIndex, placed)
        await settle()
        writing = lists
          .appendRows(target.listId, append.from + startIndex, placed, issues)
          .catch((error: unknown) => {
            writeError = error
          })
      },
      control,
    )
    await settle()
    return { parse, validation: await checker.summary() }
  } finally {
    await writing
  }
}

/** How much of a file a rehearsal reads (`rehearseImport`): about 7,000 rows of a list of ten columns. */
export const rehearsalBytes = 1 << 20

/**
 * An import's work on the first slice of its file, kept nowhere, while the user looks at the preview:
 * parsed, checked (the library not asked) and packed as the run will, in small batches so that each
 * loop runs whole and more than once. A new worker's code is then optimised for the run before it
 * starts: at 100,000 rows, without it, the worker ran its first batches half optimised and the
 * renderer's thread pool compiled beside it. Each batch ends in a task of its own, so that the run's
 * start (a message) is taken between two batches and stops the rehearsal there (`signal`); `onBatch`
 * is told of each. Resolves with the rows read, when done, stopped, or on a file that cannot be read
 * (the run reports it).
 */
export async function rehearseImport(
  file: Blob,
  options: ParseOptions,
  mapping: ColumnMapping,
  signal: AbortSignal,
  onBatch?: () => void,
): Promise<number> {
  const checker = checkHere({ mapping }, { knownIdentities: async () => new Set<string>() })
  let read = 0
  try {
    await parseRows(
      blobChunks(file.slice(0, rehearsalBytes)),
      options,
      async ({ startIndex, rows, cells }) => {
        prepareBlockRows('', startIndex, rows, await checker.check(startIndex, rows), cells)
        read += rows.length
        onBatch?.()
        // Every wait before this one is on an answer already there: without a task's end, the whole
        // megabyte would run before the worker took the run's start.
        await nextTurn()
      },
      { signal, columns: checker.columns, keepCells: true, batchSize: 1_000 },
    )
  } catch {
    // Stopped, or a file the run will refuse with its message.
  }
  return read
}

/** The file taken up again must read, at the last row stored, as it read when its import stopped. */
function checkSameFile(resume: ImportedSoFar, startIndex: number, size: number, cells: BatchCells): void {
  const at = resume.rows - 1
  if (at < startIndex || at >= startIndex + size || !resume.last) return
  const { values } = cellsRow(cells, walk(cells, at - startIndex))
  const same = values.length === resume.last.length && values.every((cell, i) => cell === resume.last![i])
  if (!same) throw changedFile(`row ${(at + 1).toLocaleString('en')} reads differently now`)
}

/** Where row `row` of a batch's cells starts. */
function walk(cells: BatchCells, row: number): CellsAt {
  let at: CellsAt = { code: 0, text: 0 }
  for (let skipped = 0; skipped < row; skipped++) at = cellsRow(cells, at).next
  return at
}

/** A batch's cells from its row `row` on. */
function cellsFrom(cells: BatchCells, row: number): BatchCells {
  const at = walk(cells, row)
  return { text: cells.text.slice(at.text), layout: cells.layout.subarray(at.code) }
}

function changedFile(reason: string): ImportError {
  return new ImportError(
    'changed_file',
    `This is not the file as it was when its import stopped: ${reason}. Choose the same file, or discard what was read and import this one as a new list.`,
  )
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
