import type { Handlers } from '../shared/contract'
import type { ServiceAccess } from './service'

type LookupHandlers = Pick<Handlers, 'lookup/company' | 'lookup/lead'>

export function createLookupHandlers(service: ServiceAccess, refreshAccount: () => void): LookupHandlers {
  return {
    'lookup/company': (lookup) => service.call((client) => client.companyProfile(lookup)),
    'lookup/lead': async (lookup) => {
      const result = await service.call((client) => client.leadProfile(lookup))
      // A found profile costs 0.1 credit: the header's balance must follow.
      if (result.ok) refreshAccount()
      return result
    },
  }
}
