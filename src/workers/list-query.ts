import { LocalListQueries } from '@/db/list-queries'
import type { QueryReply, QueryRequest } from '@/db/query-protocol'
import { db } from '@/db/schema'

/** Filters, sorts and pages the list on screen off the page's thread (see `list-queries.ts`). */
/** The worker's global, as much of it as this file uses: the DOM library's `self` fits it. */
const scope: {
  postMessage(message: QueryReply, options?: { transfer?: Transferable[] }): void
  onmessage: ((event: MessageEvent<QueryRequest>) => void) | null
} = self
const queries = new LocalListQueries(db)
// Opened as the worker starts (at the page's first idle moment), not by the first list opened:
// opening the database is a good part of a first opening's wait.
db.open().catch(() => undefined)
// One call at a time: a view's columns are built before the rows that follow it are read. The first
// block of the list last worked on is read first (`prime`), unless a list is asked for before.
let asked = false
let queue: Promise<void> = queries.prime(() => asked).catch(() => undefined)

scope.onmessage = (event) => {
  asked = true
  const request = event.data
  if (request.type === 'warm') {
    // Beside the queue: rows go on being read while the columns load; a view waits for them.
    queries.warm(request.listId).then(
      () => scope.postMessage({ id: request.id, ok: true, result: undefined }),
      (error: unknown) => scope.postMessage({ id: request.id, ok: false, message: String(error) }),
    )
    return
  }
  queue = queue.then(async () => {
    try {
      if (request.type === 'indexes') {
        const result = await queries.indexes(request.listId)
        scope.postMessage({ id: request.id, ok: true, result }, { transfer: result ? [result.buffer] : [] })
        return
      }
      const result =
        request.type === 'view'
          ? await queries.view(request.listId, request.query)
          : await queries.rows(request.listId, request.start, request.count)
      scope.postMessage({ id: request.id, ok: true, result })
    } catch (error) {
      scope.postMessage({
        id: request.id,
        ok: false,
        message: error instanceof Error ? error.message : String(error),
      })
    }
  })
}
