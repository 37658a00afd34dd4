// Bundled by the origin-move spec (esbuild, IIFE) and run in a page: the app's own source, sink and
// mover (src/origin-move), as the hidden window and the app's window run them in the desktop app.
import type { SourceAnswer, SourceRequest } from '../../../electron/shared/origin-move'
import { moveOrigin, type MoveProgress } from '../../../src/origin-move/mover'
import { createSource, type OriginSource } from '../../../src/origin-move/source'

declare global {
  interface Window {
    /** The test's relay to the source page (`tests/e2e/pages/origin-move.ts`). */
    readOldOrigin: (request: SourceRequest) => Promise<SourceAnswer>
    originMove: {
      /** Source side: answers one request of the mover, from this page's origin. */
      answer(request: SourceRequest): Promise<SourceAnswer>
      /** Sink side: moves into this page's origin, reading through `read`; every progress step seen. */
      move(read: (request: SourceRequest) => Promise<SourceAnswer>): Promise<{
        counts: Record<string, Record<string, number>>
        progress: MoveProgress[]
      }>
    }
  }
}

let source: OriginSource | null = null

window.originMove = {
  answer: (request) => {
    source ??= createSource()
    // Small pages, so a few thousand records cross in many pages, as a million do in the app.
    return source.answer(request, { records: 500, bytes: 256 * 1024 })
  },
  move: async (read) => {
    const progress: MoveProgress[] = []
    const counts = await moveOrigin(read, { idb: indexedDB, storage: localStorage }, (step) =>
      progress.push(step),
    )
    return { counts, progress }
  },
}
