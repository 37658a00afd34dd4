import type { Handlers } from '../shared/contract'
import type { BackendHost } from './host'
import type { ServiceAccess } from './service'

export function createAccountHandlers(
  host: BackendHost,
  service: ServiceAccess,
): Pick<Handlers, 'account/get'> {
  return {
    'account/get': async () => {
      const result = await service.call(async (client, endpoint) => {
        const account = await client.account()
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
