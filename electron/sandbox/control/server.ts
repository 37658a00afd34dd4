import type { IncomingMessage, ServerResponse } from 'node:http'
import { toCredits, type Account, type NewAccount, type Plan } from '../accounts'
import type { SandboxContext } from '../context'
import type { FaultRule } from '../faults'
import { json, parseJsonObject, readBody, send, type Reply } from '../http'
import type { AccountState, SandboxLog } from './types'

function state(account: Account): AccountState {
  return {
    accountId: account.id,
    email: account.email,
    credits: toCredits(account.tenths),
    phone: account.phone,
    catchAll: account.catchAll,
    freeLeadSearches: account.freeLeadSearches,
    freeCompanySearches: account.freeCompanySearches,
  }
}

function credits(body: Record<string, unknown>): number {
  if (typeof body.credits !== 'number' || !Number.isFinite(body.credits))
    throw new Error('credits must be a number')
  return body.credits
}

type Handler = (ctx: SandboxContext, body: Record<string, unknown>, param: string) => Reply

const ROUTES: [string, RegExp, Handler][] = [
  ['POST', /^\/accounts$/, (ctx, body) => json(201, ctx.accounts.create(body as NewAccount))],
  ['GET', /^\/accounts\/([^/]+)$/, (ctx, _b, id) => json(200, state(ctx.accounts.require(id)))],
  ['POST', /^\/accounts\/([^/]+)\/keys$/, (ctx, _b, id) => json(201, { key: ctx.accounts.addKey(id) })],
  [
    'POST',
    /^\/keys\/([^/]+)\/deactivate$/,
    (ctx, _b, key) =>
      ctx.accounts.deactivateKey(key)
        ? json(200, { deactivated: true })
        : json(404, { error: 'unknown key' }),
  ],
  [
    'POST',
    /^\/accounts\/([^/]+)\/top-up$/,
    (ctx, body, id) => json(200, state(ctx.accounts.topUp(id, credits(body)))),
  ],
  [
    'PUT',
    /^\/accounts\/([^/]+)\/credits$/,
    (ctx, body, id) => json(200, state(ctx.accounts.setCredits(id, credits(body)))),
  ],
  [
    'PATCH',
    /^\/accounts\/([^/]+)\/plan$/,
    (ctx, body, id) => json(200, state(ctx.accounts.setPlan(id, body as Partial<Plan>))),
  ],
  [
    'PUT',
    /^\/faults$/,
    (ctx, body) => {
      ctx.faults.set(Array.isArray(body.rules) ? (body.rules as FaultRule[]) : [])
      return json(200, { rules: ctx.faults.list() })
    },
  ],
  [
    'DELETE',
    /^\/faults$/,
    (ctx) => {
      ctx.faults.clear()
      return json(200, { rules: [] })
    },
  ],
  [
    'POST',
    /^\/outage$/,
    (ctx, body) => {
      const ms = body.ms
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > 600_000)
        throw new Error('ms must be a number of milliseconds from 0 to 600000')
      if (!ctx.outage) throw new Error('this sandbox cannot go out of reach')
      // After this answer has left: the caller learns the outage started, then the port goes quiet.
      setTimeout(() => ctx.outage?.(ms), 20)
      return json(200, { outageMs: ms })
    },
  ],
  [
    'GET',
    /^\/log$/,
    (ctx) =>
      json(200, {
        requests: ctx.requestLog.entries,
        refused: ctx.refused.requests,
        charges: ctx.accounts.charges,
        webhooks: ctx.webhooks.attempts,
      } satisfies SandboxLog),
  ],
  [
    'DELETE',
    /^\/log$/,
    (ctx) => {
      ctx.requestLog.clear()
      ctx.refused.requests = 0
      ctx.accounts.charges.length = 0
      ctx.webhooks.attempts.length = 0
      return json(200, { cleared: true })
    },
  ],
]

/** Serves `/__sandbox/…`, the test and demo controls; these requests are not in the request log. */
export async function handleControl(
  ctx: SandboxContext,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const { value: body, malformed } = parseJsonObject(await readBody(req))
  // A control call with an unreadable body must not act on defaults (create an account, clear faults).
  if (malformed) return send(res, json(400, { error: 'malformed JSON body: send a JSON object' }))
  for (const [method, pattern, handler] of ROUTES) {
    const match = req.method === method ? pattern.exec(path) : null
    if (!match) continue
    try {
      return send(res, handler(ctx, body, decodeURIComponent(match[1] ?? '')))
    } catch (error) {
      const message = (error as Error).message
      return send(res, json(message.startsWith('unknown account') ? 404 : 400, { error: message }))
    }
  }
  send(res, json(404, { error: 'unknown control route' }))
}
