import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef, watch } from 'vue'
import type { Result } from '@shared/result'
import { invoke } from '@/bridge'
import { notify } from '@/ui/notify'
import { formatBytes, formatNumber } from '@/ui/format'
import {
  createList,
  deleteList,
  finishImport,
  importedSoFar,
  saveMappingFor,
  savedMappingFor,
  setSkip,
  type ImportedSoFar,
} from '@/db/lists'
import type { ColumnMapping, ListRecord } from '@/db/records'
import { importProblem, type ImportProblem } from '@domain/read/errors'
import { fitMapping, suggestMapping } from '@domain/mapping'
import {
  buildPreview,
  longSampleBytes,
  sampleBytes,
  wantsLongSample,
  type Preview,
  type PreviewOverrides,
} from '@domain/read/preview'
import type { MappedField } from '@domain/person'
import type { StoredImport } from '@/db/import-rows'
import { skippableIssues, skippedRows } from '@domain/validation'
import type { WorkerOutcome } from '@/workers/import-client'
import type { Rehearsal } from '@/workers/import-protocol'
import { looksLikeWorkbook } from '@domain/read/workbook'
import { baseName, defaultSkips } from './import-defaults'
import { useImportRun } from './import-run'
import { readLibraryAhead } from '@/db/library-client'
import { useImportWorkbook } from './import-workbook'
import { useImportAppend } from './import-append'
import { abandonAppend, appendRefusal, beginAppend, finishAppend } from '@/db/list-append'
import { claim, listClaim, listHeldElsewhere } from './window-locks'

export type ImportStep = 'preview' | 'mapping' | 'importing' | 'review'

/** The header's row when rows above it are left out; nothing when it is the first row. */
const headerRowOf = (built: Preview): { headerRow?: number } =>
  built.headerRow !== undefined && built.headerRow > 1 ? { headerRow: built.headerRow } : {}

/** How a workbook's sheet, made CSV by the workbook worker, is read. */
const sheetReading: PreviewOverrides = { encoding: 'utf-8', delimiter: ',' }

export type { ImportProblem }
export type { WorkbookChoice } from './import-workbook'

/** Why rows cannot go into a list another window of the app is reading rows into. */
const elsewhere = `${listHeldElsewhere}: finish or stop there first.`

/** One import at a time: the dialog shows this state and calls these actions. */
export const useImportsStore = defineStore('imports', () => {
  /** A file handed over by the drop overlay or the picker; the overlay's dialog opens on it. */
  const requested = shallowRef<File | null>(null)
  /** The file as the user gave it; `file` is what is read (a workbook's sheet as CSV). */
  const source = shallowRef<File | null>(null)
  const file = shallowRef<File | null>(null)
  const step = ref<ImportStep>('preview')
  const preview = shallowRef<Preview | null>(null)
  const overrides = ref<PreviewOverrides>({})
  const problem = ref<ImportProblem | null>(null)
  const name = ref('')
  const mapping = ref<ColumnMapping>({})
  const mappingRemembered = ref(false)
  const listId = ref<string | null>(null)
  /**
   * This window's claim on the list it reads rows into, from before the list shows as taking them
   * until it no longer does (`listId` back to null): another window leaves that list alone.
   */
  let heldClaim: (() => void) | null = null
  const letGo = () => {
    heldClaim?.()
    heldClaim = null
  }
  watch(listId, (id) => id === null && letGo(), { flush: 'sync' })
  /** Claims `id` for this window; false when another window has it. */
  async function claimList(id: string): Promise<boolean> {
    letGo()
    heldClaim = await claim(listClaim(id))
    return heldClaim !== null
  }
  const stored = shallowRef<StoredImport | null>(null)
  const skips = ref(defaultSkips())
  const finishing = ref(false)
  const sheets = useImportWorkbook()
  const workbook = sheets.workbook
  const worker = useImportRun()
  const progress = worker.progress
  /** An interrupted import being taken up again: the rows it had stored before it stopped. */
  const resumed = ref<number | null>(null)
  /** The name of the list whose interrupted import is being taken up again. */
  const resuming = ref<string | null>(null)
  /** The list whose interrupted import the next requested file takes up again. */
  let resumeNext: ListRecord | null = null
  /** Adding a file's rows to a list (`requestAppend`) rather than making one. */
  const append = useImportAppend()
  /** The list the next requested file's rows are added to. */
  let appendNext: ListRecord | null = null
  /** The list's row the file's first row became, once its rows are being stored. */
  let appendFrom: number | null = null
  /** The header (when the file has one) whose mapping is remembered once the list is made. */
  let header: string[] | null = null
  let sample = new Uint8Array()

  const totalBytes = computed(() => file.value?.size ?? 0)
  const toSend = computed(() => {
    const result = stored.value
    if (!result) return 0
    return result.parse.rows - skippedRows(result.validation, (issue) => skips.value[issue])
  })

  /** The system's file dialog (in Electron); `not_available` where the backend has none (the web host). */
  async function pickWithSystemDialog(): Promise<Result<File | null>> {
    const picked = await invoke('files/pickCsv')
    if (!picked.ok) return picked
    return { ok: true, data: picked.data ? new File([picked.data.data as BlobPart], picked.data.name) : null }
  }

  function request(next: File): void {
    resumeNext = null
    appendNext = null
    requested.value = markRaw(next)
  }

  /**
   * Hands the import dialog a file whose rows are added to `list`: the same preview, columns (matched
   * by name to the list's) and check. Refused at once while the list cannot take rows (a run of it).
   */
  function requestAppend(list: ListRecord, next: File): void {
    const refused = appendRefusal(list)
    if (refused) {
      notify.error(refused)
      return
    }
    resumeNext = null
    appendNext = list
    requested.value = markRaw(next)
  }

  /** Hands the import dialog a file that takes up the interrupted import of `list` where it stopped. */
  function requestResume(list: ListRecord, next: File): void {
    resumeNext = list
    requested.value = markRaw(next)
  }

  async function open(next: File): Promise<void> {
    const interrupted = resumeNext
    const into = appendNext
    resumeNext = null
    appendNext = null
    if (interrupted) return resume(interrupted, next)
    await discard()
    append.into.value = into
    source.value = markRaw(next)
    name.value = into ? into.name : baseName(next.name)
    overrides.value = {}
    skips.value = defaultSkips()
    const start = new Uint8Array(await next.slice(0, 8).arrayBuffer())
    if (looksLikeWorkbook(next.name, start)) return openSheets(next)
    file.value = markRaw(next)
    sample = new Uint8Array(await next.slice(0, sampleBytes).arrayBuffer())
    await refreshPreview(true)
  }

  /**
   * The file being added to a list read as a list of its own instead (its columns match none of the
   * list's): the same dialog, from its preview, with the file's name. A workbook opens on its
   * first sheet that holds a table again.
   */
  async function importInstead(): Promise<void> {
    const current = source.value
    if (!current || !append.into.value) return
    // The encoding, delimiter and header row chosen in the preview stay chosen.
    const chosen = overrides.value
    resumeNext = null
    appendNext = null
    await open(current)
    if (file.value === current && Object.keys(chosen).length > 0) {
      overrides.value = chosen
      await refreshPreview(true)
    }
  }

  /** Reads a workbook in its worker, then the sheet that holds a list (the user may pick another). */
  async function openSheets(next: File): Promise<void> {
    const opened = await sheets.open(next)
    if (!opened) return
    if (opened.chosen === null) problem.value = opened.problem
    else await chooseSheet(opened.chosen)
  }

  /** Reads one sheet of the open workbook as the list to import. */
  async function chooseSheet(sheet: string): Promise<void> {
    const reading = sheets.read(sheet)
    if (!reading) return
    forgetPreview()
    problem.value = null
    preview.value = null
    const csv = await reading
    if (!csv) return
    if ('code' in csv) {
      problem.value = csv
      return
    }
    file.value = markRaw(csv)
    // The sheet's cells are its cells: its CSV is read with the delimiter it was written with.
    overrides.value = { ...sheetReading }
    sample = new Uint8Array(await csv.slice(0, sampleBytes).arrayBuffer())
    await refreshPreview(true)
  }

  /**
   * Counts the previews asked for: a preview, and its mapping, are only shown by the latest one (a
   * file dropped again, a sheet or an option chosen, or the dialog discarded meanwhile leaves an
   * older one with nothing to do when its reads come back).
   */
  let previewAsked = 0
  /** A preview is being read: "Next" waits for it. */
  const previewing = ref(false)

  /** Leaves any preview still being read with nothing to do. */
  function forgetPreview(): void {
    previewAsked++
    previewing.value = false
  }

  async function refreshPreview(resetMapping: boolean): Promise<void> {
    const current = file.value
    if (!current) return
    const asked = ++previewAsked
    const latest = () => asked === previewAsked
    step.value = 'preview'
    problem.value = null
    previewing.value = true
    try {
      let built = buildPreview(sample, current.size <= sample.length, overrides.value)
      if (wantsLongSample(built, sample.length, current.size)) {
        const longer = new Uint8Array(await current.slice(0, longSampleBytes).arrayBuffer())
        if (!latest()) return
        sample = longer
        built = buildPreview(sample, current.size <= sample.length, overrides.value)
      }
      const columnsChanged = preview.value?.columns.join('\u0001') !== built.columns.join('\u0001')
      // The mapping is settled before the preview shows, so that "Next" never leads to columns
      // the remembered mapping then changes under the user's hands.
      if (resetMapping || columnsChanged) {
        const saved = built.hasHeader ? await savedMappingFor(built.columns) : null
        if (!latest()) return
        mappingRemembered.value = saved !== null
        mapping.value = saved ?? suggestMapping(built.columns, built.sample)
      }
      preview.value = markRaw(built)
      if (append.into.value) append.follow(built)
      worker.prepare(rehearsalOf(current, built))
      // The rows' check asks the library about every person: its index read while the user maps.
      readLibraryAhead()
    } catch (error) {
      if (!latest()) return
      preview.value = null
      problem.value = importProblem(error)
    } finally {
      if (latest()) previewing.value = false
    }
  }

  /** The file as the run will read it, for its workers to rehearse (`useImportRun().prepare`). */
  function rehearsalOf(current: File, built: Preview): Rehearsal {
    return {
      file: current,
      options: {
        encoding: built.encoding,
        delimiter: built.delimiter,
        hasHeader: built.hasHeader,
        ...headerRowOf(built),
        width: built.columns.length,
      },
      mapping: fitMapping(mapping.value, built.columns.length),
    }
  }

  async function setOverrides(patch: PreviewOverrides): Promise<void> {
    overrides.value = { ...overrides.value, ...patch }
    await refreshPreview(false)
  }

  function setField(field: MappedField, column: number | null): void {
    const next = { ...mapping.value }
    if (column === null) delete next[field]
    else next[field] = column
    mapping.value = next
  }

  function goTo(next: 'preview' | 'mapping'): void {
    if (preview.value) step.value = next
  }

  async function startImport(): Promise<void> {
    const current = file.value
    const built = preview.value
    if (!current || !built || worker.running()) return
    if (append.into.value) return startAppend(append.into.value, current, built)
    problem.value = null
    let list: ListRecord
    const id = crypto.randomUUID()
    try {
      await claimList(id)
      list = await createList({
        id,
        name: name.value.trim() || baseName(current.name),
        source: {
          fileName: workbook.value?.fileName ?? current.name,
          size: workbook.value?.size ?? current.size,
          ...(workbook.value?.sheet ? { sheet: workbook.value.sheet } : {}),
          encoding: built.encoding,
          delimiter: built.delimiter,
          hasHeader: built.hasHeader,
          ...headerRowOf(built),
        },
        columns: built.columns,
        mapping: fitMapping(mapping.value, built.columns.length),
      })
    } catch (error) {
      letGo()
      problem.value = importProblem(error)
      return
    }
    header = built.hasHeader ? built.columns : null
    const outcome = await readInto(list, current)
    if (!outcome) return
    await deleteList(list.id)
    listId.value = null
    step.value = 'mapping'
    worker.prepare(rehearsalOf(current, built))
    if (outcome.type === 'failed') problem.value = outcome.error
    else notify.info('Import cancelled; nothing was kept.')
  }

  /**
   * Adds the file's rows to `into` as matched (`append`): the list is marked as taking them, its
   * rows seen by the check, the file's rows stored after them; a cancel or a failure takes them back.
   */
  async function startAppend(into: ListRecord, current: File, built: Preview): Promise<void> {
    problem.value = append.refusal.value
    if (problem.value) return
    if (!(await claimList(into.id))) {
      problem.value = { code: 'busy', message: elsewhere }
      return
    }
    const begun = await beginAppend(into.id, workbook.value?.fileName ?? current.name)
    if (!begun.ok) {
      letGo()
      problem.value = { code: 'busy', message: begun.message }
      return
    }
    const list = begun.value
    appendFrom = list.appending!.from
    header = null
    const target = append.target(appendFrom)!
    const outcome = await readInto(list, current, undefined, {
      options: rehearsalOf(current, built).options,
      target,
    })
    if (!outcome) return
    await abandonAppend(list.id)
    appendFrom = null
    listId.value = null
    step.value = 'mapping'
    if (outcome.type === 'failed') problem.value = outcome.error
    else notify.info('Adding the rows was cancelled; the list is as it was.')
  }

  /**
   * Takes up an import that stopped (the window closed) where it stopped: the same file is read
   * again with the list's own reading options and mapping; the rows stored before are checked again
   * but not written twice. When it fails or is stopped, what was read stays for another try.
   */
  async function resume(list: ListRecord, next: File): Promise<void> {
    await discard()
    resuming.value = list.name
    source.value = markRaw(next)
    name.value = list.name
    mapping.value = list.mapping
    header = list.source.hasHeader ? list.columns : null
    step.value = 'importing'
    const stop = (reason: ImportProblem) => {
      resumed.value = null
      listId.value = null
      letGo()
      problem.value = reason
    }
    if (!(await claimList(list.id))) return stop({ code: 'busy', message: elsewhere })
    if (next.size !== list.source.size) {
      return stop({
        code: 'changed_file',
        message: `This is not the file whose import stopped: “${next.name}” holds ${formatBytes(next.size)}, “${list.source.fileName}” held ${formatBytes(list.source.size)}. Choose the same file, or discard what was read.`,
      })
    }
    let readable = next
    if (list.source.sheet !== undefined) {
      const sheet = await sheets.sheetAsCsv(next, list.source.sheet)
      if ('code' in sheet) return stop(sheet)
      readable = sheet
    }
    file.value = markRaw(readable)
    const soFar = await importedSoFar(list.id)
    resumed.value = soFar.rows
    const outcome = await readInto(list, readable, soFar)
    if (!outcome) return
    // Counted again: the rows parsed run ahead of the rows stored by up to a batch.
    const stored = (await importedSoFar(list.id)).rows
    const kept = `The ${formatNumber(stored)} rows stored so far are kept: take the import up again from Lists, or discard it there.`
    if (outcome.type === 'failed') stop({ ...outcome.error, message: `${outcome.error.message} ${kept}` })
    else stop({ code: 'cancelled', message: kept })
  }

  /**
   * Reads, checks and stores `readable` into the list in the import workers. Resolves with nothing
   * when the rows are read (the review step follows) or the import was discarded meanwhile; else
   * with how it ended, for the caller to clean up.
   */
  async function readInto(
    list: ListRecord,
    readable: File,
    soFar?: ImportedSoFar,
    appended?: Parameters<typeof worker.read>[3],
  ): Promise<Exclude<WorkerOutcome, { type: 'done' }> | null> {
    listId.value = list.id
    step.value = 'importing'
    const outcome = await worker.read(list, readable, soFar, appended)
    // Discarded while it ran: `discard` took back what was stored, under the list's claim.
    if (listId.value !== list.id) return null
    if (outcome.type !== 'done') return outcome
    stored.value = markRaw(outcome.result)
    progress.value = { bytes: outcome.result.parse.bytes, rows: outcome.result.parse.rows }
    step.value = 'review'
    return null
  }

  function cancelImport(): void {
    worker.cancel()
  }

  /** Applies the skip choices and hands the list over; returns its id. */
  async function finish(): Promise<string | null> {
    const id = listId.value
    const result = stored.value
    if (!id || !result) return null
    finishing.value = true
    try {
      // Rows arrive unskipped; one pass marks the categories to skip.
      const skipped = skippableIssues.filter(
        (kind) => skips.value[kind] && result.validation.counts[kind] > 0,
      )
      if (append.into.value && appendFrom !== null) {
        await setSkip(id, skipped, true, undefined, appendFrom)
        const match = append.match.value!
        const done = await finishAppend(
          id,
          result.parse.rows,
          match.columns,
          append.widestOf(match, result.parse.widest),
        )
        if (!done.ok) {
          problem.value = { code: 'busy', message: done.message }
          return null
        }
        if (done.value) notify.success(`${done.value.label}. Undo takes them away again.`)
        listId.value = null
        reset()
        return id
      }
      await setSkip(id, skipped, true)
      await finishImport(id, result.parse.rows, result.parse.widest)
      if (header) await saveMappingFor(header, mapping.value)
      listId.value = null
      reset()
      return id
    } finally {
      finishing.value = false
    }
  }

  /**
   * Forgets the current import; a list half-made by it is deleted, except an interrupted one taken
   * up again and left before its rows were all read: it stays, to be taken up again.
   */
  async function discard(): Promise<void> {
    worker.cancel()
    const keep = resumed.value !== null && step.value === 'importing'
    const id = keep ? null : listId.value
    const appended = append.into.value !== null
    // The list stays this window's until its rows are gone: another would take them for cut off.
    const held = heldClaim
    heldClaim = null
    reset()
    try {
      if (id) await (appended ? abandonAppend(id) : deleteList(id))
    } finally {
      held?.()
    }
  }

  function reset(): void {
    worker.release()
    forgetPreview()
    resumed.value = null
    resuming.value = null
    append.reset()
    appendFrom = null
    header = null
    sheets.close()
    source.value = null
    file.value = null
    preview.value = null
    stored.value = null
    listId.value = null
    problem.value = null
    step.value = 'preview'
    mapping.value = {}
    sample = new Uint8Array()
  }

  return {
    pickWithSystemDialog,
    requested,
    listId,
    source,
    file,
    workbook,
    chooseSheet,
    step,
    preview,
    overrides,
    problem,
    name,
    mapping,
    mappingRemembered,
    previewing,
    progress,
    totalBytes,
    stored,
    skips,
    toSend,
    finishing,
    request,
    requestResume,
    requestAppend,
    importInstead,
    appendInto: append.into,
    columnMatch: append.match,
    appendRefusal: append.refusal,
    chooseColumn: append.choose,
    resumed,
    resuming,
    open,
    setOverrides,
    setField,
    goTo,
    startImport,
    cancelImport,
    finish,
    discard,
  }
})
