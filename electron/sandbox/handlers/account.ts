import { wholeCredits } from '../accounts'
import type { ApiRequest } from '../context'
import { json, type Reply } from '../http'

/** The email always comes from the key; an `email` query parameter is ignored. */
export function readAccount(request: ApiRequest): Reply {
  const { account } = request
  return json(200, { success: true, credits_left: wholeCredits(account.tenths), email: account.email })
}
