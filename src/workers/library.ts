import { libraryService, type LibraryAnswer, type LibraryCall } from '@/db/library-service'
import { db } from '@/db/schema'

/**
 * The library's people off the page's thread: their index, searches and every write that files
 * people (`library-service.ts`). Calls run as they come; IndexedDB's transactions keep them apart.
 */
const scope: {
  postMessage(message: LibraryAnswer): void
  onmessage: ((event: MessageEvent<LibraryCall>) => void) | null
} = self
const service = libraryService(db)

scope.onmessage = (event) => {
  const { id, method, args } = event.data
  const run = service[method] as (...given: typeof args) => Promise<unknown>
  run(...args).then(
    (result) => scope.postMessage({ id, ok: true, result }),
    (error: unknown) =>
      scope.postMessage({
        id,
        ok: false,
        name: error instanceof Error ? error.name : 'Error',
        message: error instanceof Error ? error.message : String(error),
      }),
  )
}
