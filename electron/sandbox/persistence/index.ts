import { chmod, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { SandboxContext } from '../context'
import { armCompanySearch } from '../jobs/company-search'
import { armEnrichment } from '../jobs/enrichment'
import { armLeadSearch } from '../jobs/lead-search'
import { DebouncedWriter, setAside, warn } from './file'
import { sandboxState } from './schema'
import { captureState, decodeState, worldOf, type RestoredState } from './snapshot'

export const STATE_FILE = 'sandbox-state.json'
const SAVE_DELAY_MS = 200

export interface StateStore {
  /** Writes the final state; call once every timer of the sandbox has stopped. */
  close(): Promise<void>
  /** Writes pending changes now. */
  flush(): Promise<void>
}

interface Loaded {
  state: RestoredState | null
  /** Why the file cannot be used; `reason` names the file it is set aside as. */
  problem?: { reason: string; message: string }
}

function parse(ctx: SandboxContext, text: string): Loaded {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    return { state: null, problem: { reason: 'corrupt', message: (error as Error).message } }
  }
  const checked = sandboxState.safeParse(json)
  if (!checked.success) return { state: null, problem: { reason: 'corrupt', message: checked.error.message } }
  const saved = checked.data.world
  const current = worldOf(ctx)
  if (JSON.stringify(saved) !== JSON.stringify(current)) {
    const message = `saved for world ${JSON.stringify(saved)}, this sandbox has ${JSON.stringify(current)}`
    return { state: null, problem: { reason: 'other-world', message } }
  }
  try {
    return { state: decodeState(checked.data, ctx) }
  } catch (error) {
    return { state: null, problem: { reason: 'corrupt', message: (error as Error).message } }
  }
}

async function load(ctx: SandboxContext, file: string): Promise<RestoredState | null> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    text = ''
  }
  const loaded = parse(ctx, text)
  if (loaded.problem) {
    const moved = await setAside(file, loaded.problem.reason)
    warn(
      `${file} is unusable (${loaded.problem.message}); ` +
        `${moved ? `moved to ${moved}, ` : ''}starting with a fresh state`,
    )
  }
  return loaded.state
}

function apply(ctx: SandboxContext, state: RestoredState): void {
  ctx.accounts.importState(state.accounts)
  for (const job of state.enrichments) ctx.jobs.enrichments.set(job.id, job)
  for (const job of state.leadSearches) ctx.jobs.leadSearches.set(job.id, job)
  for (const job of state.companySearches) ctx.jobs.companySearches.set(job.id, job)
  for (const job of state.enrichments) armEnrichment(ctx, job)
  for (const job of state.leadSearches) armLeadSearch(ctx, job)
  for (const job of state.companySearches) armCompanySearch(ctx, job)
}

/**
 * Restores `<stateDir>/sandbox-state.json` into a new sandbox's context, re-arming the work of its
 * unfinished requests, then saves every change of accounts and requests to it.
 */
export async function openStateStore(ctx: SandboxContext, stateDir: string): Promise<StateStore> {
  // Its owner's alone, as the job ledger's folder is; a folder made by an earlier version is tightened.
  await mkdir(stateDir, { recursive: true, mode: 0o700 })
  await chmod(stateDir, 0o700)
  const file = join(stateDir, STATE_FILE)
  const state = await load(ctx, file)
  if (state) apply(ctx, state)
  const writer = new DebouncedWriter(file, () => JSON.stringify(captureState(ctx)), SAVE_DELAY_MS)
  ctx.accounts.onChange(() => writer.schedule())
  ctx.jobs.onChange(() => writer.schedule())
  return { close: () => writer.close(), flush: () => writer.flush() }
}
