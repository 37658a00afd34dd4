import { liveQuery, type Subscription } from 'dexie'
import { defineStore } from 'pinia'
import { computed, ref, shallowRef, watch } from 'vue'
import type { AppError } from '@shared/result'
import type { EnrichmentEstimateView, JobView } from '@shared/contract'
import { stageBatchLimit } from '@shared/limits'
import type { RunCounts } from '@domain/run'
import { invoke } from '@/bridge'
import { db } from '@/db/schema'
import type { ListRecord, RowRecord } from '@/db/records'
import { rowsAt } from '@/db/rows'
import {
  appendRows,
  createListFromRecords,
  deleteList,
  finishImport,
  importedSoFar,
  planRun,
  validateList,
  type LocalDecision,
} from '@/db/lists'
import { knownToLibrary, libraryKnowledgeOf, libraryOf } from '@/db/library-client'
import { abandonAppend, cutOff } from '@/db/list-append'
import { notify } from '@/ui/notify'
import { useImportsStore } from './imports'
import { useJobsStore } from './jobs'
import { heldClaims, ifUnclaimed, listClaim, listHeldElsewhere, whenFree } from './window-locks'

/** Why a list cannot be deleted while another window reads rows into it. */
const readingElsewhere = `${listHeldElsewhere}: stop there first, then delete it.`

export interface RunOptions {
  email: boolean
  phone: boolean
  catchAll: boolean
  /** Ask again what was answered more than this many days ago; unset keeps every answer. */
  refreshAfterDays?: number
  /** Send again rows an earlier run gave up while the answer was unknown (may charge twice). */
  resendGivenUp?: boolean
}

export interface PreparedRun {
  /** Absent when nothing needs the service: the run only fills rows from twins and the library. */
  stagingId?: string
  /** What the service part may cost, in people and credits. */
  estimate: EnrichmentEstimateView
  /** What happens to every row, in rows (and people where it says so). */
  counts: RunCounts
  /** Rows to fill from twins or the library (or mark as not sent) when the run starts. */
  local: LocalDecision[]
}

const noEstimate: EnrichmentEstimateView = {
  rows: 0,
  toSend: 0,
  known: 0,
  duplicates: 0,
  invalid: 0,
  chunks: 0,
  minCredits: 0,
  maxCredits: 0,
  byKind: { email: 0, phone: 0, catchAll: 0 },
}

/** Job ids are readable and unique per run: `list-<list>-run-<n>`. */
export function runJobId(list: ListRecord): string {
  return `list-${list.id}-run-${list.jobIds.length + 1}`
}

export const useListsStore = defineStore('lists', () => {
  const lists = shallowRef<ListRecord[]>([])
  /** False until the lists have been read once. */
  const loaded = ref(false)
  let subscription: Subscription | null = null

  function watchLists(): void {
    subscription ??= liveQuery(() => db.lists.orderBy('updatedAt').reverse().toArray()).subscribe({
      next: (next) => {
        lists.value = next
        loaded.value = true
      },
      error: (error: unknown) => console.error('[lists] could not read lists', error),
    })
  }

  /**
   * Appends and new lists of another's rows cut off by the window closing, found as the app starts.
   * An append's rows were never the list's and go, so the list is as it was; a list being made of
   * another's rows goes, the other is as it was. An import goes on from where it stopped because
   * its rows are a list of their own; an append's are one change of another list, which a part of
   * would leave half made, and the file is at hand to add again.
   */
  async function takeBackCutOff(): Promise<void> {
    await Promise.all((await cutOff()).map((list) => takeBackIfCutOff(list.id)))
  }

  /**
   * An append or a new list a window is making (another, or this one) is not cut off: the list is
   * looked at again once that window lets go of it, and taken back if it was not finished by then
   * (the window closed midway).
   */
  async function takeBackIfCutOff(listId: string): Promise<void> {
    const free = await ifUnclaimed(listClaim(listId), async () => {
      const list = await db.lists.get(listId)
      if (list?.appending) {
        await abandonAppend(list.id)
        notify.warning(
          `Adding the rows of “${list.appending.fileName}” to “${list.name}” was cut off; the list is as it was before. Add the file again to add them.`,
        )
      } else if (list?.makingFrom) {
        await deleteList(list.id)
        notify.warning(
          `Making the list “${list.name}” of another list’s rows was cut off; it was not kept. Make it again from the list it came from.`,
        )
      }
    })
    if (!free) lookAgainOnceFree(listId)
  }

  /** Lists whose claim this window waits on, to look at them again once no window holds it. */
  const awaited = new Set<string>()
  function lookAgainOnceFree(listId: string): void {
    if (awaited.has(listId)) return
    awaited.add(listId)
    whenFree(listClaim(listId), () => {
      awaited.delete(listId)
      void readClaims()
      void takeBackIfCutOff(listId)
    })
  }

  /**
   * Decides what the run does with every row (the domain's rules), stages the rows that need the
   * service with what to ask for each, and asks what that may cost. Nothing is spent or written yet.
   */
  async function prepareRun(list: ListRecord, options: RunOptions): Promise<PreparedRun | AppError> {
    const {
      rows: toSend,
      counts,
      local,
    } = await planRun(list.id, list.mapping, { ...options, now: Date.now() }, libraryKnowledgeOf())
    if (counts.rows === 0) return { code: 'invalid_input', message: 'This list has no rows to enrich.' }
    let stagingId: string | undefined
    for (let start = 0; start < toSend.length; start += stageBatchLimit) {
      const staged = await invoke('jobs/stageRows', {
        stagingId,
        rows: toSend.slice(start, start + stageBatchLimit),
      })
      if (!staged.ok) return staged.error
      stagingId = staged.data.stagingId
    }
    if (!stagingId) return { estimate: noEstimate, counts, local }
    const estimate = await invoke('jobs/estimate', {
      stagingId,
      email: options.email,
      phone: options.phone,
      catchAll: options.catchAll,
    })
    if (!estimate.ok) return estimate.error
    return { stagingId, estimate: estimate.data, counts, local }
  }

  /** Fills rows from twins and the library, then starts the service part, if any. */
  async function startRun(
    list: ListRecord,
    prepared: PreparedRun,
    options: RunOptions,
    maxCredits: number | undefined,
  ): Promise<JobView | null | AppError> {
    await libraryOf().applyKnownAnswers(list.id, prepared.local)
    if (!prepared.stagingId) {
      await db.lists.update(list.id, { state: 'done', updatedAt: Date.now() })
      return null
    }
    const jobId = runJobId(list)
    const started = await invoke('jobs/startEnrichment', {
      jobId,
      stagingId: prepared.stagingId,
      label: list.name,
      options: { email: options.email, phone: options.phone, catchAll: options.catchAll },
      maxCredits,
      onUncertain: 'ask',
    })
    if (!started.ok) return started.error
    await db.lists.update(list.id, {
      jobIds: [...list.jobIds, jobId],
      state: 'running',
      updatedAt: Date.now(),
    })
    await useJobsStore().track(started.data, { listId: list.id })
    return started.data
  }

  /** Deletes a list; false, and nothing deleted, while a window is reading rows into it. */
  async function remove(listId: string): Promise<boolean> {
    // A list a window copies rows from is claimed too (`listOfShown`).
    const done = await ifUnclaimed(listClaim(listId), () => deleteList(listId))
    if (!done) notify.error(readingElsewhere)
    return done
  }

  /** Follows one list's record as it changes (undefined once it is deleted). */
  function watchList(listId: string, next: (list: ListRecord | undefined) => void): Subscription {
    return liveQuery(() => db.lists.get(listId)).subscribe({ next })
  }

  /** A new list of rows already in memory (search results saved as a list), checked as an import is. */
  async function createFromTable(
    name: string,
    table: { columns: string[]; rows: string[][]; mapping: ListRecord['mapping'] },
  ): Promise<ListRecord> {
    return createListFromRecords(
      name,
      table.columns,
      table.rows,
      table.mapping,
      { fileName: `${name}.csv`, size: 0, encoding: 'utf-8', delimiter: ',', hasHeader: true },
      knownToLibrary(),
    )
  }

  /**
   * Appends rows to a list, made for its columns and mapping by `rowsFor`; the new rows are checked
   * (duplicates, people the library already knows) as imported ones are. Returns how many were added.
   */
  async function appendToList(listId: string, rowsFor: (list: ListRecord) => string[][]): Promise<number> {
    const list = await db.lists.get(listId)
    if (!list) throw new Error('That list no longer exists.')
    const rows = rowsFor(list)
    await appendRows(listId, list.rowCount, rows)
    await finishImport(listId, list.rowCount + rows.length)
    await validateList(listId, list.mapping, knownToLibrary())
    return rows.length
  }

  /** Lists that can take new rows now: not being imported or enriched. */
  async function idleLists(): Promise<ListRecord[]> {
    const all = await db.lists.orderBy('updatedAt').reverse().toArray()
    return all.filter((list) => (list.state === 'ready' || list.state === 'done') && !list.appending)
  }

  /**
   * Lists left "importing" by an import that is not running (the window closed, or the app quit,
   * mid-import): their rows are a part of the file, so the user takes the import up again where it
   * stopped, or discards them; they are never shown as if they were whole.
   */
  const interrupted = computed(() => {
    const current = useImportsStore().listId
    return lists.value.filter(
      (list) =>
        list.state === 'importing' &&
        !list.makingFrom &&
        list.id !== current &&
        checked.value.has(list.id) &&
        !elsewhere.value.has(list.id),
    )
  })

  /**
   * Lists left importing, once their claims were read (`window-locks.ts`), and those of them another
   * window holds: one another window is importing now is not interrupted. Such lists, and lists
   * another window adds rows to, are looked at again once that window lets go of them. This
   * window's own are told apart by the import going on (`current`), which lets go of its list
   * without a change of the list's record.
   */
  const checked = ref(new Set<string>())
  const elsewhere = ref(new Set<string>())
  async function readClaims(): Promise<void> {
    const held = await heldClaims()
    const importing = lists.value.filter((list) => list.state === 'importing')
    checked.value = new Set(importing.map((list) => list.id))
    elsewhere.value = new Set(
      importing.filter((list) => held.elsewhere.has(listClaim(list.id))).map((list) => list.id),
    )
    for (const list of lists.value) {
      // This window's own import or append: it lets go of the list only once the rows are settled.
      if (held.ours.has(listClaim(list.id))) continue
      if (list.state === 'importing' && held.elsewhere.has(listClaim(list.id))) lookAgainOnceFree(list.id)
      else if (list.appending || list.makingFrom) void takeBackIfCutOff(list.id)
    }
  }
  watch(lists, () => void readClaims())

  /** How many rows each interrupted import stored before it stopped, by list id. */
  const rowsRead = ref(new Map<string, number>())
  watch(
    interrupted,
    async (now) => {
      const counted = await Promise.all(
        now.map(async (list) => [list.id, (await importedSoFar(list.id)).rows] as const),
      )
      rowsRead.value = new Map(counted)
    },
    { immediate: true },
  )

  /** Hands the file chosen for an interrupted import to the import dialog, to go on where it stopped. */
  function resumeImport(list: ListRecord, file: File): void {
    useImportsStore().requestResume(list, file)
  }

  /** One row of a list by its index: what a link to a row (a person's page) opens. */
  async function row(listId: string, index: number): Promise<RowRecord | undefined> {
    return (await rowsAt(listId, [index]))[0]
  }

  /** How many people of a list changed company, title or email at their latest answer. */
  function changedPeople(listId: string): Promise<number> {
    return libraryOf().changedInList(listId)
  }

  return {
    lists,
    loaded,
    interrupted,
    rowsRead,
    resumeImport,
    takeBackCutOff,
    watchLists,
    watchList,
    prepareRun,
    startRun,
    remove,
    createFromTable,
    appendToList,
    idleLists,
    row,
    changedPeople,
  }
})
