import type { Handlers } from '../shared/contract'
import type { ServiceAccess } from './service'

type LookupHandlers = Pick<Handlers, 'lookup/company' | 'lookup/lead'>

export function createLookupHandlers(service: ServiceAccess, refreshAccount: () => void): LookupHandlers {
  return {
    'lookup/company': (lookup) =>
      service.waited((client, _endpoint, signal) => client.companyProfile(lookup, signal)),
    'lookup/lead': async (lookup) => {
      // Charged: Cancel stops it only while it waits, never while an attempt travels.
      const result = await service.waited((client, _endpoint, signal) =>
        client.leadProfile(lookup, { signal }),
      )
      // A found profile costs 0.1 credit: the header's balance must follow.
      if (result.ok) refreshAccount()
      return result
    },
  }
}
