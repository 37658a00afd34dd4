import type { SampleListView } from '../shared/contract'
import { fail, ok, type Result } from '../shared/result'
import type { BackendHost } from './host'

export interface RunningSandbox {
  url: string
  baseUrl: string
  demoKey: string
  sample(): SampleListView
  close(): Promise<void>
}

export type SandboxStarter = () => Promise<RunningSandbox>

export interface Endpoint {
  mode: 'sandbox' | 'service'
  baseUrl: string
  apiKey: string
}

/**
 * Decides where calls go: the real service when a key is set and the sandbox is not chosen,
 * otherwise the sandbox, which is started in process on first use so a new user can try everything.
 */
export class Connection {
  private sandbox: RunningSandbox | null = null
  private starting: Promise<RunningSandbox> | null = null
  private readonly listeners: Array<() => void> = []

  constructor(
    private readonly host: BackendHost,
    private readonly startSandbox: SandboxStarter,
  ) {}

  mode(): 'sandbox' | 'service' {
    const settings = this.host.settings.load()
    const { key } = this.host.keys.read()
    return settings.useSandbox || key === null ? 'sandbox' : 'service'
  }

  sandboxUrl(): string | null {
    return this.sandbox?.url ?? null
  }

  async endpoint(): Promise<Result<Endpoint>> {
    if (this.mode() === 'sandbox') {
      const sandbox = await this.ensureSandbox()
      return ok({ mode: 'sandbox', baseUrl: sandbox.baseUrl, apiKey: sandbox.demoKey })
    }
    const { baseUrl } = this.host.settings.load()
    const { key } = this.host.keys.read()
    if (key === null) return fail('no_key', 'No API key is set. Add one in Settings, or use the sandbox.')
    if (baseUrl === '') {
      return fail('no_key', 'No service address is set. Add it in Settings, or use the sandbox.')
    }
    return ok({ mode: 'service', baseUrl: baseUrl.replace(/\/+$/, ''), apiKey: key })
  }

  /**
   * The sandbox's sample list, for a user trying the app: not once a key is set, even with the
   * sandbox chosen, since that user has their own lists.
   */
  async sample(): Promise<Result<SampleListView>> {
    if (this.host.keys.read().key !== null || this.mode() !== 'sandbox') {
      return fail('not_available', 'The sample list is offered on the sandbox, before an API key is set.')
    }
    return ok((await this.ensureSandbox()).sample())
  }

  /** Settings changed: whatever was derived from the old ones must be rebuilt on next use. */
  invalidate(): void {
    this.listeners.forEach((listener) => listener())
  }

  onInvalidate(listener: () => void): void {
    this.listeners.push(listener)
  }

  async close(): Promise<void> {
    const sandbox = this.sandbox ?? (this.starting ? await this.starting.catch(() => null) : null)
    this.sandbox = null
    this.starting = null
    await sandbox?.close()
  }

  private async ensureSandbox(): Promise<RunningSandbox> {
    if (this.sandbox) return this.sandbox
    this.starting ??= this.startSandbox().then((sandbox) => {
      this.sandbox = sandbox
      return sandbox
    })
    try {
      return await this.starting
    } catch (error) {
      this.starting = null
      throw error
    }
  }
}
