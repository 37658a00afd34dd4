import { channels, isChannelName, type Handlers } from '../shared/contract'
import { valueDepthExceeds } from '../shared/json-depth'
import { fail, type Result } from '../shared/result'

/**
 * The single entry both transports call: the channel name and input arrive from an untrusted
 * renderer, so both are checked here before any handler runs.
 */
export async function dispatch(
  handlers: Handlers,
  channel: unknown,
  rawInput: unknown,
): Promise<Result<unknown>> {
  if (!isChannelName(channel)) return fail('unknown_channel', `There is no channel named ${String(channel)}.`)
  // Before the schema walks it: a value nested without bound overflows whatever recurses into it.
  if (valueDepthExceeds(rawInput)) return fail('invalid_input', 'The input is nested too deeply.')
  const parsed = channels[channel].input.safeParse(rawInput)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue && issue.path.length > 0 ? ` (${issue.path.join('.')})` : ''
    return fail('invalid_input', `${issue?.message ?? 'Invalid input'}${where}`)
  }
  const handler = handlers[channel] as (input: unknown) => Promise<Result<unknown>>
  try {
    return await handler(parsed.data)
  } catch (error) {
    // A throw is a bug, not an expected failure; the renderer still gets a value it can show.
    console.error(`[backend] ${channel} failed`, error)
    return fail('internal', error instanceof Error ? error.message : 'Something went wrong.')
  }
}
