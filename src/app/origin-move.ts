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
 * Before the app opens its database: brings the data an earlier desktop version kept under file://
 * into this origin, when main says it has not been brought yet. Resolves once it is here and
 * checked (or there is nothing to bring); on a failure it shows what happened and never resolves,
 * so the app does not open on an empty database beside the user's real one.
 */
export async function bringOldData(host: OriginMoveHost | undefined, into: HTMLElement): Promise<void> {
  if (!host) return
  const screen = reactive<MoveScreen>({ done: 0, total: 0, error: null })
  const view = createApp(AppOriginMove, { screen, onRetry: () => location.reload() })
  let shown = false
  const show = () => {
    if (!shown) view.mount(into)
    shown = true
  }
  try {
    if (!(await host.start()).move) return
    show()
    const counts = await moveOrigin(host.read, { idb: indexedDB, storage: localStorage }, (progress) => {
      screen.done = progress.done
      screen.total = progress.total
    })
    const finished = await host.finish(counts)
    if (!finished.ok) throw new Error(finished.message)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    screen.error = message
    show()
    await host.fail(message).catch(() => undefined)
    return new Promise<never>(() => undefined)
  }
  if (shown) view.unmount()
}
