import { defineStore } from 'pinia'
import { computed, markRaw, ref, shallowRef } from 'vue'
import type { Result } from '@shared/result'
import { invoke } from '@/bridge'
import { notify } from '@/ui/notify'
import { createList, deleteList, finishImport, saveMappingFor, savedMappingFor, setSkip } from '@/db/lists'
import type { ColumnMapping, ListRecord, RowIssue } from '@/db/schema'
import { isImportError, type ImportErrorCode } from '@domain/read/errors'
import { fitMapping, suggestMapping } from '@domain/mapping'
import { buildPreview, sampleBytes, type Preview, type PreviewOverrides } from '@domain/read/preview'
import type { MappedField } from '@domain/person'
import type { StoredImport } from '@/db/import-rows'
import { issueKinds, skippableIssues, skippedRows } from '@domain/validation'
import { startImportWorker, type WorkerRun } from '@/workers/import-client'

export type ImportStep = 'preview' | 'mapping' | 'importing' | 'review'

export interface ImportProblem {
  code: ImportErrorCode | 'internal'
  message: string
  line?: number
}

/** Every category is skipped unless the user says otherwise: nothing doubtful is paid for by default. */
const defaultSkips = (): Record<RowIssue, boolean> =>
  Object.fromEntries(issueKinds.map((kind) => [kind, true])) as Record<RowIssue, boolean>

const baseName = (fileName: string) => fileName.replace(/\.(csv|tsv|txt)$/i, '') || fileName

/** One import at a time: the dialog shows this state and calls these actions. */
export const useImportsStore = defineStore('imports', () => {
  /** A file handed over by the drop overlay or the picker; the overlay's dialog opens on it. */
  const requested = shallowRef<File | null>(null)
  const file = shallowRef<File | null>(null)
  const step = ref<ImportStep>('preview')
  const preview = shallowRef<Preview | null>(null)
  const overrides = ref<PreviewOverrides>({})
  const problem = ref<ImportProblem | null>(null)
  const name = ref('')
  const mapping = ref<ColumnMapping>({})
  const mappingRemembered = ref(false)
  const progress = ref({ bytes: 0, rows: 0 })
  const listId = ref<string | null>(null)
  const stored = shallowRef<StoredImport | null>(null)
  const skips = ref(defaultSkips())
  const finishing = ref(false)
  let sample = new Uint8Array()
  let run: WorkerRun | null = null

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
    requested.value = markRaw(next)
  }

  async function open(next: File): Promise<void> {
    await discard()
    file.value = markRaw(next)
    name.value = baseName(next.name)
    overrides.value = {}
    skips.value = defaultSkips()
    sample = new Uint8Array(await next.slice(0, sampleBytes).arrayBuffer())
    await refreshPreview(true)
  }

  async function refreshPreview(resetMapping: boolean): Promise<void> {
    const current = file.value
    if (!current) return
    step.value = 'preview'
    problem.value = null
    try {
      const built = buildPreview(sample, current.size <= sampleBytes, overrides.value)
      const columnsChanged = preview.value?.columns.join('\u0001') !== built.columns.join('\u0001')
      preview.value = markRaw(built)
      if (resetMapping || columnsChanged) await suggest(built)
    } catch (error) {
      preview.value = null
      problem.value = describe(error)
    }
  }

  async function suggest(built: Preview): Promise<void> {
    const saved = built.hasHeader ? await savedMappingFor(built.columns) : null
    mappingRemembered.value = saved !== null
    mapping.value = saved ?? suggestMapping(built.columns, built.sample)
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
    if (!current || !built || run) return
    problem.value = null
    progress.value = { bytes: 0, rows: 0 }
    let list: ListRecord
    try {
      list = await createList({
        name: name.value.trim() || baseName(current.name),
        source: {
          fileName: current.name,
          size: current.size,
          encoding: built.encoding,
          delimiter: built.delimiter,
          hasHeader: built.hasHeader,
        },
        columns: built.columns,
        mapping: fitMapping(mapping.value, built.columns.length),
      })
    } catch (error) {
      problem.value = describe(error)
      return
    }
    listId.value = list.id
    step.value = 'importing'
    run = startImportWorker(
      {
        type: 'start',
        file: current,
        listId: list.id,
        mapping: list.mapping,
        options: {
          encoding: built.encoding,
          delimiter: built.delimiter,
          hasHeader: built.hasHeader,
          width: built.columns.length,
        },
      },
      (next) => {
        progress.value = next
      },
    )
    const outcome = await run.outcome
    run = null
    if (listId.value !== list.id) {
      // Discarded while it ran.
      await deleteList(list.id)
      return
    }
    if (outcome.type === 'done') {
      stored.value = markRaw(outcome.result)
      progress.value = { bytes: outcome.result.parse.bytes, rows: outcome.result.parse.rows }
      step.value = 'review'
      return
    }
    await deleteList(list.id)
    listId.value = null
    step.value = 'mapping'
    if (outcome.type === 'failed') problem.value = outcome.error
    else notify.info('Import cancelled; nothing was kept.')
  }

  function cancelImport(): void {
    run?.cancel()
  }

  /** Applies the skip choices and hands the list over; returns its id. */
  async function finish(): Promise<string | null> {
    const id = listId.value
    const result = stored.value
    const built = preview.value
    if (!id || !result || !built) return null
    finishing.value = true
    try {
      // Rows arrive unskipped; one pass marks the categories to skip.
      const skipped = skippableIssues.filter(
        (kind) => skips.value[kind] && result.validation.counts[kind] > 0,
      )
      await setSkip(id, skipped, true)
      await finishImport(id, result.parse.rows, result.parse.widest)
      if (built.hasHeader) await saveMappingFor(built.columns, mapping.value)
      listId.value = null
      reset()
      return id
    } finally {
      finishing.value = false
    }
  }

  /** Forgets the current import; a list half-made by it is deleted. */
  async function discard(): Promise<void> {
    run?.cancel()
    const id = listId.value
    reset()
    if (id) await deleteList(id)
  }

  function reset(): void {
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
    file,
    step,
    preview,
    overrides,
    problem,
    name,
    mapping,
    mappingRemembered,
    progress,
    totalBytes,
    stored,
    skips,
    toSend,
    finishing,
    request,
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

function describe(error: unknown): ImportProblem {
  if (isImportError(error)) return { code: error.code, message: error.message, line: error.line }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}
