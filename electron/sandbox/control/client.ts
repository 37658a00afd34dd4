import type { NewAccount, Plan } from '../accounts'
import type { FaultRule } from '../faults'
import type { AccountState, SandboxControl, SandboxLog } from './types'

/** Typed client of `/__sandbox` over real HTTP, usable from any process. */
export function controlClient(url: string): SandboxControl {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${url}/__sandbox${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const payload = (await response.json()) as T & { error?: string }
    if (!response.ok)
      throw new Error(`sandbox control ${method} ${path}: ${payload.error ?? response.status}`)
    return payload
  }
  const account = (id: string) => `/accounts/${encodeURIComponent(id)}`
  return {
    createAccount: (input: NewAccount = {}) => call('POST', '/accounts', input),
    addKey: async (accountId) => (await call<{ key: string }>('POST', `${account(accountId)}/keys`)).key,
    deactivateKey: async (key) => {
      await call('POST', `/keys/${encodeURIComponent(key)}/deactivate`)
    },
    topUp: (accountId, credits) => call<AccountState>('POST', `${account(accountId)}/top-up`, { credits }),
    setCredits: (accountId, credits) =>
      call<AccountState>('PUT', `${account(accountId)}/credits`, { credits }),
    setPlan: (accountId, plan: Partial<Plan>) =>
      call<AccountState>('PATCH', `${account(accountId)}/plan`, plan),
    setFaults: async (rules: FaultRule[]) => {
      await call('PUT', '/faults', { rules })
    },
    clearFaults: async () => {
      await call('DELETE', '/faults')
    },
    log: () => call<SandboxLog>('GET', '/log'),
    outage: async (ms) => {
      await call('POST', '/outage', { ms })
      // The port goes quiet just after the answer: return once it has.
      await new Promise((resolve) => setTimeout(resolve, 60))
    },
    clearLog: async () => {
      await call('DELETE', '/log')
    },
    balance: async (accountId) => (await call<AccountState>('GET', account(accountId))).credits,
    account: (accountId) => call<AccountState>('GET', account(accountId)),
  }
}
