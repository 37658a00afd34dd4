import {
  libraryReceiver,
  libraryService,
  type LibraryAnswer,
  type LibraryCall,
  type LibraryPart,
} from '@/db/library-service'
import { db } from '@/db/schema'

/**
 * The library's people off the page's thread: their index, searches and every write that files
 * people (`library-service.ts`). Calls run as they come; IndexedDB's transactions keep them apart.
 */
const scope: {
  postMessage(message: LibraryAnswer): void
  onmessage: ((event: MessageEvent<LibraryCall | LibraryPart>) => void) | null
} = self
const receive = libraryReceiver(libraryService(db), (answer) => scope.postMessage(answer))

scope.onmessage = (event) => receive(event.data)
