import {
  libraryService,
  libraryWorkerReceiver,
  type LibraryAnswer,
  type ToLibrary,
} from '@/db/library-service'
import { primeContactIndex } from '@/db/library-contacts'
import { db } from '@/db/schema'

/**
 * The library's people off the page's thread: their index, searches and every write that files
 * people (`library-service.ts`), for the page and, by a port, for the import worker. Calls run as
 * they come; IndexedDB's transactions keep them apart.
 */
const scope: {
  postMessage(message: LibraryAnswer): void
  onmessage: ((event: MessageEvent<ToLibrary>) => void) | null
} = self
const receive = libraryWorkerReceiver(libraryService(db), (answer) => scope.postMessage(answer))

scope.onmessage = (event) => receive(event.data)
// The worker starts at the page's first idle moment: the newest people's keys are read then, not by
// the first search. A call meanwhile runs beside it (the index takes a block's keys once).
primeContactIndex(db).catch(() => undefined)
