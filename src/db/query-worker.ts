import { LocalListQueries, type ListQueries } from './list-queries'
import type { QueryReply, QueryRequest } from './query-protocol'
import type { RowQuery } from './row-query'
import { db } from './schema'
import type { RowRecord } from './records'
import { plain } from './plain'

/** A request before its id is given. */
type Unsent = QueryRequest extends infer R ? (R extends QueryRequest ? Omit<R, 'id'> : never) : never

type Pending = { resolve: (result: QueryReply & { ok: true }) => void; reject: (error: Error) => void }

/** The list queries in a worker of their own; the page only sends and receives messages. */
class WorkerListQueries implements ListQueries {
  private readonly worker = new Worker(new URL('../workers/list-query.ts', import.meta.url), {
    type: 'module',
  })
  private readonly pending = new Map<number, Pending>()
  private next = 0

  constructor() {
    this.worker.onmessage = (event: MessageEvent<QueryReply>) => {
      const reply = event.data
      const waiting = this.pending.get(reply.id)
      if (!waiting) return
      this.pending.delete(reply.id)
      if (reply.ok) waiting.resolve(reply)
      else waiting.reject(new Error(reply.message))
    }
    this.worker.onerror = (event) => {
      event.preventDefault()
      for (const waiting of this.pending.values())
        waiting.reject(new Error(event.message || 'The list query stopped.'))
      this.pending.clear()
    }
  }

  private call(request: Unsent): Promise<QueryReply & { ok: true }> {
    const id = ++this.next
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject })
      const message: QueryRequest = { ...request, id }
      this.worker.postMessage(message)
    })
  }

  async view(listId: string, query: Omit<RowQuery, 'offset' | 'limit'>): Promise<number | null> {
    // Vue's reactive proxies do not clone: the query goes as plain data.
    return (await this.call({ type: 'view', listId, query: plain(query) })).result as number | null
  }

  async rows(listId: string, start: number, count: number): Promise<RowRecord[]> {
    return (await this.call({ type: 'rows', listId, start, count })).result as RowRecord[]
  }

  async indexes(listId: string): Promise<Int32Array | null> {
    return (await this.call({ type: 'indexes', listId })).result as Int32Array | null
  }

  async warm(listId: string): Promise<void> {
    await this.call({ type: 'warm', listId })
  }

  dispose(): void {
    this.worker.terminate()
  }
}

/** The query worker in a browser; the same queries on the page where no worker runs (unit tests). */
function createListQueries(): ListQueries {
  return import.meta.env.MODE !== 'test' && typeof Worker === 'function'
    ? new WorkerListQueries()
    : new LocalListQueries(db)
}

let shared: ListQueries | null = null

/** The app's one query worker, started on first use. */
export function listQueries(): ListQueries {
  shared ??= createListQueries()
  return shared
}

/**
 * Starts the query worker once the page is idle, so that the first list opened does not wait for
 * a worker to start, load its code and open the database.
 */
export function prepareListQueries(): void {
  if (shared || typeof requestIdleCallback !== 'function') return
  requestIdleCallback(() => listQueries(), { timeout: 5_000 })
}
