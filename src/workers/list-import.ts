import { appendRows, eachRowBefore } from '@/db/lists'
import { ImportError, importProblem, isImportError } from '@domain/read/errors'
import { blobChunks, type ParseControl } from '@domain/read/parse'
import type { FromWorker, ToWorker } from '@/workers/import-protocol'
import { checkHere, rehearseImport, storeRows, type RowChecker } from '@/db/import-rows'
import { knownToLibrary, portLibrary, provideLibrary } from '@/db/library-client'
import { db } from '@/db/schema'
import { answerChecks, checkedElsewhere } from './import-check'

/**
 * Reads, checks and stores a list off the page's thread, so the window stays responsive: as the
 * store worker, or as the check worker of an import on two threads (`import-protocol.ts`).
 */
/** The worker's global, as much of it as this file uses: the DOM library's `self` fits it. */
const scope: {
  postMessage(message: FromWorker): void
  onmessage: ((event: MessageEvent<ToWorker>) => void) | null
} = self
const controller = new AbortController()
/** Progress is posted at most this often: enough for a smooth bar, few messages. */
const progressEveryMs = 100
let lastProgressAt = 0

const post = (message: FromWorker): void => scope.postMessage(message)

// Opened before the run is asked for (the worker is spawned as the preview shows): a failure here
// is the run's to report, as its first write meets it again.
db.open().catch(() => undefined)

/** Stops the rehearsal under way as the run starts, or as another rehearsal (a changed preview) does. */
let rehearsal = new AbortController()

scope.onmessage = (event) => {
  const message = event.data
  if (message.type === 'cancel') controller.abort()
  else if (message.type === 'rehearse') {
    rehearsal.abort()
    rehearsal = new AbortController()
    void rehearseImport(message.file, message.options, message.mapping, rehearsal.signal)
  } else {
    rehearsal.abort()
    if (message.role === 'check') void check(message)
    else void store(message)
  }
}

type Start = Extract<ToWorker, { type: 'start' }>

/** The library's people are checked where their index is, not read again here. */
function useLibrary({ library }: Start): void {
  if (library) provideLibrary(portLibrary(library, db))
}

async function store(message: Start): Promise<void> {
  useLibrary(message)
  const control: ParseControl = {
    signal: controller.signal,
    onProgress: (progress) => {
      const now = Date.now()
      if (now - lastProgressAt < progressEveryMs) return
      lastProgressAt = now
      post({ type: 'progress', progress })
    },
  }
  try {
    const result = await storeRows(
      blobChunks(message.file),
      message.options,
      {
        listId: message.listId,
        mapping: message.mapping,
        ...(message.resume ? { resume: message.resume } : {}),
        ...(message.append ? { append: message.append } : {}),
      },
      {
        // An append's rows are counted when they become the list's (`finishAppend`).
        appendRows: message.append
          ? (listId, startIndex, rows, issues, cells) =>
              appendRows(listId, startIndex, rows, issues, cells, db, false)
          : appendRows,
        knownIdentities: knownToLibrary(),
      },
      control,
      await checkerOf(message),
    )
    post({ type: 'done', result })
  } catch (error) {
    if (isImportError(error) && error.code === 'cancelled') post({ type: 'cancelled' })
    else post({ type: 'failed', error: importProblem(error) })
  }
}

/**
 * Where the store worker's rows are checked: by the check worker when there is one; for an append,
 * here, after the list's own rows are seen, so that a row repeating one is a duplicate.
 */
async function checkerOf(message: Start): Promise<RowChecker | undefined> {
  if (message.append) {
    const checker = checkHere({ mapping: message.mapping }, { knownIdentities: knownToLibrary() })
    await eachRowBefore(message.listId, message.append.from, (rows) => {
      if (controller.signal.aborted) throw new ImportError('cancelled', 'The import was cancelled.')
      checker.see?.(rows)
    })
    return checker
  }
  return message.peer ? checkedElsewhere(message.peer, controller.signal) : undefined
}

/** The check worker: answers only its store worker, which reports the run to the page. */
async function check(message: Start): Promise<void> {
  useLibrary(message)
  if (!message.peer || message.append) return
  await answerChecks(
    message.peer,
    blobChunks(message.file),
    message.options,
    { mapping: message.mapping },
    { knownIdentities: knownToLibrary() },
    { signal: controller.signal },
  )
}
