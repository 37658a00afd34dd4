import { appendRows, knownIdentities } from '@/db/lists'
import { importProblem, isImportError } from '@domain/read/errors'
import { blobChunks } from '@domain/read/parse'
import type { FromWorker, ToWorker } from '@/workers/import-protocol'
import { storeRows } from '@/db/import-rows'
import { portLibrary, provideLibrary } from '@/db/library-client'
import { db } from '@/db/schema'

/** Reads, checks and stores a list off the page's thread, so the window stays responsive. */
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

scope.onmessage = (event) => {
  const message = event.data
  if (message.type === 'cancel') controller.abort()
  else void run(message)
}

async function run(message: Extract<ToWorker, { type: 'start' }>): Promise<void> {
  // The library's people are checked where their index is, not read again here.
  const { library } = message
  if (library) provideLibrary(portLibrary(library, db))
  try {
    const result = await storeRows(
      blobChunks(message.file),
      message.options,
      {
        listId: message.listId,
        mapping: message.mapping,
        ...(message.resume ? { resume: message.resume } : {}),
      },
      { appendRows, knownIdentities },
      {
        signal: controller.signal,
        onProgress: (progress) => {
          const now = Date.now()
          if (now - lastProgressAt < progressEveryMs) return
          lastProgressAt = now
          post({ type: 'progress', progress })
        },
      },
    )
    post({ type: 'done', result })
  } catch (error) {
    if (isImportError(error) && error.code === 'cancelled') post({ type: 'cancelled' })
    else post({ type: 'failed', error: importProblem(error) })
  }
}
