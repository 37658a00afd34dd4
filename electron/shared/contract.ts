/**
 * The one contract between the renderer and the backend. Every channel is declared here once, as
 * `feature/verb` with zod schemas for its input and output; every event with the schema of its payload.
 * The renderer's `invoke`/`on`, the backend's handler table and both transports (Electron IPC and the
 * web host's WebSocket) derive their types from this file, so a channel without a handler, or a call
 * with the wrong input, does not compile.
 */
import { z } from 'zod'
import type { Result } from './result'

const noInput = z.undefined()

export const keyStorageSchema = z.enum(['encrypted', 'session', 'environment', 'file', 'none'])
export type KeyStorage = z.infer<typeof keyStorageSchema>

export const settingsViewSchema = z.object({
  /** What is in effect: the sandbox when it is chosen, or when no key is set. */
  mode: z.enum(['sandbox', 'service']),
  useSandbox: z.boolean(),
  baseUrl: z.string(),
  sandboxUrl: z.string().nullable(),
  key: z.object({
    set: z.boolean(),
    /** Never the key itself: at most its last four characters behind dots. */
    masked: z.string().nullable(),
    storage: keyStorageSchema,
  }),
  secretStore: z.object({
    /** Whether a key can be kept across restarts in the OS's secret store. */
    available: z.boolean(),
    backend: z.string(),
    note: z.string().nullable(),
  }),
  lowBalanceThreshold: z.number(),
})
export type SettingsView = z.infer<typeof settingsViewSchema>

export const accountViewSchema = z.object({
  mode: z.enum(['sandbox', 'service']),
  email: z.string(),
  creditsLeft: z.number(),
  checkedAt: z.string(),
})
export type AccountView = z.infer<typeof accountViewSchema>

const serviceUrl = z
  .string()
  .trim()
  .refine((value) => {
    if (value === '') return true
    try {
      const url = new URL(value)
      return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))
    } catch {
      return false
    }
  }, 'Use an https:// address (plain http:// only for 127.0.0.1 or localhost).')

function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host)
}

const apiKey = z
  .string()
  .trim()
  .min(8, 'That key is too short to be an API key.')
  .max(512, 'That key is too long to be an API key.')
  .regex(/^\S+$/, 'An API key has no spaces inside.')

export const channels = {
  'app/info': {
    input: noInput,
    output: z.object({
      version: z.string(),
      host: z.enum(['electron', 'web']),
      platform: z.string(),
    }),
  },
  'settings/get': { input: noInput, output: settingsViewSchema },
  'settings/update': {
    input: z
      .object({
        baseUrl: serviceUrl.optional(),
        useSandbox: z.boolean().optional(),
        lowBalanceThreshold: z.number().min(0).max(10_000_000).optional(),
      })
      .strict(),
    output: settingsViewSchema,
  },
  'settings/setKey': {
    input: z.object({ key: apiKey, storage: z.enum(['persistent', 'session']) }).strict(),
    output: settingsViewSchema,
  },
  'settings/clearKey': { input: noInput, output: settingsViewSchema },
  'account/get': { input: noInput, output: accountViewSchema },
} as const satisfies Record<string, { input: z.ZodType; output: z.ZodType }>

export const events = {
  'settings/changed': settingsViewSchema,
  'account/changed': accountViewSchema,
} as const satisfies Record<string, z.ZodType>

export type Channels = typeof channels
export type ChannelName = keyof Channels
export type EventName = keyof typeof events

/** What the caller passes (before defaults and trimming). */
export type ChannelInput<C extends ChannelName> = z.input<Channels[C]['input']>
/** What the handler receives, after the schema has parsed it. */
export type ParsedInput<C extends ChannelName> = z.output<Channels[C]['input']>
export type ChannelOutput<C extends ChannelName> = z.output<Channels[C]['output']>
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>

export type InvokeArgs<C extends ChannelName> =
  undefined extends ChannelInput<C> ? [input?: ChannelInput<C>] : [input: ChannelInput<C>]

export type Invoke = <C extends ChannelName>(
  channel: C,
  ...args: InvokeArgs<C>
) => Promise<Result<ChannelOutput<C>>>

export type Subscribe = <E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
) => () => void

/** What the renderer sees as `window.leadkeeper`, whichever transport carries it. */
export interface Bridge {
  invoke: Invoke
  on: Subscribe
}

export type Handlers = {
  [C in ChannelName]: (input: ParsedInput<C>) => Promise<Result<ChannelOutput<C>>>
}

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void

export const channelNames = Object.keys(channels) as ChannelName[]
export const eventNames = Object.keys(events) as EventName[]

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === 'string' && Object.hasOwn(channels, value)
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(events, value)
}
