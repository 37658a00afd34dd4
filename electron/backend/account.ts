import type { Handlers } from '../shared/contract'
import type { BackendHost } from './host'
import type { ServiceAccess } from './service'

export function createAccountHandlers(
  host: BackendHost,
  service: ServiceAccess,
): Pick<Handlers, 'account/get'> {
  return {
    'account/get': async () => {
      const result = await service.waited(async (client, endpoint, signal) => {
        const account = await client.account(signal)
        return {
          mode: endpoint.mode,
          email: account.email,
          creditsLeft: account.credits_left,
          checkedAt: new Date().toISOString(),
        }
      })
      if (result.ok) host.emit('account/changed', result.data)
      return result
    },
  }
}
