import type { WebContents } from 'electron'
import { z } from 'zod'
import {
  originMoveChannels,
  sameCounts,
  surveyCounts,
  type MoveStart,
  type SourceRequest,
  type StoreCounts,
} from '../shared/origin-move'

/** What main checks of the survey it relays: the counts it will hold the copy to. */
const surveySchema = z.object({
  databases: z.array(
    z.object({
      name: z.string(),
      version: z.number().int().positive(),
      stores: z.array(z.object({ name: z.string(), count: z.number().int().nonnegative() }).loose()),
    }),
  ),
  localStorage: z.array(z.tuple([z.string(), z.string()])),
})
const countsSchema = z.record(z.string(), z.record(z.string(), z.number().int().nonnegative()))
const requestSchema = z.union([
  z.object({ kind: z.literal('survey') }),
  z.object({
    kind: z.literal('page'),
    database: z.string(),
    store: z.string(),
    after: z.unknown().optional(),
  }),
])
const answerSchema = z.object({ id: z.number(), answer: z.object({ ok: z.boolean() }).loose() })
/** An answer of the hidden window, relayed as it came: the app's window reads it (`src/origin-move`). */
type RelayedAnswer = z.infer<typeof answerSchema>['answer']

/** The hidden window on the old origin, as main uses it. */
export interface SourceWindow {
  webContents: Pick<WebContents, 'send'>
  close(): void
  /** Called if the window's page crashes or the window goes away before the move ends. */
  onGone(listener: () => void): void
}

/** What the move needs of `ipcMain`, over its events (Electron's IpcMainInvokeEvent and IpcMainEvent). */
export interface MoveIpc<InvokeEvent, SendEvent extends { sender: unknown }> {
  handle(channel: string, listener: (event: InvokeEvent, input: unknown) => unknown): void
  on(channel: string, listener: (event: SendEvent, input: unknown) => void): void
}

export interface OriginMoveOptions<InvokeEvent, SendEvent extends { sender: unknown }> {
  ipcMain: MoveIpc<InvokeEvent, SendEvent>
  /** Our app window's main frame, showing our page: the only caller of the move's channels. */
  isTrustedSender: (event: InvokeEvent) => boolean
  /** False while developing: the dev server's origin is not the packaged app's. */
  enabled: boolean
  isDone: () => boolean
  markDone: () => void
  /** Whether the old origin may hold anything: false when the profile has no IndexedDB folder at all. */
  hasOldData: () => boolean
  openSourceWindow: () => Promise<SourceWindow>
  /** How long main waits for one answer of the hidden window. */
  answerTimeoutMs?: number
  log?: (message: string) => void
}

/**
 * Main's part of the move (`electron/shared/origin-move.ts`): it decides whether a move is needed,
 * opens the hidden window, relays each request of the app's window to it and each answer back, and
 * marks the move done only when the app's window reports, store by store, as many records as the
 * survey counted. Main never writes or deletes a record; a failed move leaves the mark unset, so
 * the next start moves again.
 */
export function registerOriginMove<InvokeEvent, SendEvent extends { sender: unknown }>(
  options: OriginMoveOptions<InvokeEvent, SendEvent>,
): { /** The app's window is gone: the hidden window goes too, so the app can quit. */ close(): void } {
  const { ipcMain, isTrustedSender } = options
  const timeout = options.answerTimeoutMs ?? 120_000
  let source: SourceWindow | null = null
  let opening: Promise<SourceWindow> | null = null
  let expected: StoreCounts | null = null
  let nextId = 1
  const pending = new Map<number, (answer: RelayedAnswer) => void>()

  const guard = (event: InvokeEvent) => {
    if (!isTrustedSender(event)) throw new Error('This caller is not allowed.')
  }
  const closeSource = () => {
    const closing = source
    source = null
    opening = null
    closing?.close()
    for (const resolve of pending.values()) {
      resolve({ ok: false, message: 'The window reading your old data closed before the copy ended.' })
    }
    pending.clear()
  }
  const sourceWindow = () => {
    opening ??= options.openSourceWindow().then(
      (opened) => {
        opened.onGone(() => {
          if (source === opened) closeSource()
        })
        return (source = opened)
      },
      (error: unknown) => {
        opening = null
        throw error
      },
    )
    return opening
  }

  ipcMain.handle(originMoveChannels.start, async (event): Promise<MoveStart> => {
    guard(event)
    if (!options.enabled || options.isDone()) return { move: false }
    if (!options.hasOldData()) {
      options.markDone()
      return { move: false }
    }
    await sourceWindow()
    return { move: true }
  })

  ipcMain.handle(originMoveChannels.read, async (event, input: unknown): Promise<RelayedAnswer> => {
    guard(event)
    const request: SourceRequest = requestSchema.parse(input)
    const window = await sourceWindow()
    const id = nextId++
    const answer = await new Promise<RelayedAnswer>((resolve) => {
      const timer = setTimeout(() => {
        pending.delete(id)
        resolve({ ok: false, message: 'Your old data did not answer in time.' })
      }, timeout)
      pending.set(id, (value) => {
        clearTimeout(timer)
        resolve(value)
      })
      window.webContents.send(originMoveChannels.sourceRequest, { id, request })
    })
    if (answer.ok && request.kind === 'survey') {
      const survey = surveySchema.safeParse(answer.survey)
      if (!survey.success) return { ok: false, message: 'The list of your old data could not be read.' }
      expected = surveyCounts(survey.data)
    }
    return answer
  })

  ipcMain.on(originMoveChannels.sourceAnswer, (event, input) => {
    // Only the hidden window answers; anything else is dropped.
    if (!source || event.sender !== source.webContents) return
    const parsed = answerSchema.safeParse(input)
    if (!parsed.success) return
    const resolve = pending.get(parsed.data.id)
    pending.delete(parsed.data.id)
    resolve?.(parsed.data.answer)
  })

  ipcMain.handle(originMoveChannels.finish, (event, input: unknown) => {
    guard(event)
    const counts = countsSchema.safeParse(input)
    if (!counts.success || !expected || !sameCounts(expected, counts.data)) {
      options.log?.('[origin-move] the copy does not match the source; not marked done')
      return { ok: false, message: 'The copy of your data is not complete; it will be made again.' }
    }
    options.markDone()
    closeSource()
    return { ok: true }
  })

  ipcMain.handle(originMoveChannels.fail, (event, input: unknown) => {
    guard(event)
    options.log?.(`[origin-move] failed: ${String(input)}`)
    closeSource()
  })

  return { close: closeSource }
}
