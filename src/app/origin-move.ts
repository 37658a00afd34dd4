import { createApp, reactive } from 'vue'
import type { OriginMoveHost } from '@shared/origin-move'
import { moveOrigin } from '@/origin-move/mover'
import AppOriginMove from './AppOriginMove.vue'

declare global {
  interface Window {
    /** The desktop shell's own door, apart from the contract; absent in a browser (the web host). */
    leadkeeperShell?: { originMove: OriginMoveHost }
  }
}

/** What the move screen shows. */
export interface MoveScreen {
  done: number
  total: number
  error: string | null
}

/**
 * This origin's own word on the move, kept beside its data: `copying` from before the first record is
 * written, `done` once main has checked the copy. Main keeps its own mark in the settings file; if
 * that file is lost, this one still stops a move from running again over data written since.
 */
export const moveMarkKey = 'leadkeeper.originMove'

/**
 * Before the app opens its database: brings the data an earlier desktop version kept under file://
 * into this origin, when main says it has not been brought yet. Resolves once it is here and
 * checked (or there is nothing to bring); on a failure it shows what happened and never resolves,
 * so the app does not open on an empty database beside the user's real one.
 */
export async function bringOldData(
  host: OriginMoveHost | undefined,
  into: HTMLElement,
  here: { idb: IDBFactory; storage: Storage } = { idb: indexedDB, storage: localStorage },
): Promise<void> {
  if (!host) return
  const mark = here.storage.getItem(moveMarkKey)
  if (mark === 'done') return
  // A database here with no move begun is this version's own: never replaced by an old copy.
  if (mark !== 'copying' && (await here.idb.databases()).length > 0) {
    here.storage.setItem(moveMarkKey, 'done')
    return
  }
  const screen = reactive<MoveScreen>({ done: 0, total: 0, error: null })
  const view = createApp(AppOriginMove, { screen, onRetry: () => location.reload() })
  let shown = false
  const show = () => {
    if (!shown) view.mount(into)
    shown = true
  }
  try {
    if (!(await host.start()).move) {
      here.storage.setItem(moveMarkKey, 'done')
      return
    }
    here.storage.setItem(moveMarkKey, 'copying')
    show()
    const counts = await moveOrigin(host.read, here, (progress) => {
      screen.done = progress.done
      screen.total = progress.total
    })
    const finished = await host.finish(counts)
    if (!finished.ok) throw new Error(finished.message)
    here.storage.setItem(moveMarkKey, 'done')
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    screen.error = message
    show()
    await host.fail(message).catch(() => undefined)
    return new Promise<never>(() => undefined)
  }
  if (shown) view.unmount()
}
