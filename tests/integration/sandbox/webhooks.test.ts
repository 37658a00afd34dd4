import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../electron/sandbox'
import { startReceiver, waitFor } from './receiver'
import { byStatus, call, leads, pollUntil, startTestSandbox } from './support'

// 10 s, 2, 3 and 4 minutes at a thousandth of real time.
const TIME_SCALE = 0.001
const SCALED_DELAYS = [10, 120, 180, 240]

let sandbox: Sandbox
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  sandbox = await startTestSandbox({ timeScale: TIME_SCALE, webhookTimeoutMs: 300 })
  receiver = await startReceiver((path, attempt) => {
    if (path.startsWith('/fail-always')) return { status: 500 }
    if (path.startsWith('/fail-twice')) return { status: attempt <= 2 ? 503 : 204 }
    if (path.startsWith('/slow')) return { status: 200, delayMs: attempt === 1 ? 1500 : 0 }
    if (path.startsWith('/contact-fail')) return { status: 500 }
    return { status: 200 }
  })
})
afterAll(async () => {
  await sandbox.close()
  await receiver.close()
})

async function enrich(body: Record<string, unknown>) {
  const created = await call(sandbox, 'POST', '/async', { key: sandbox.demoKey, body })
  expect(created.status).toBe(201)
  const done = await pollUntil(
    () => call(sandbox, 'GET', `/async/${created.body.id}`, { key: sandbox.demoKey }),
    byStatus('terminated'),
  )
  return { id: created.body.id as string, done }
}

describe('whole-request webhook', () => {
  it('posts JSON once at terminated with a body identical to the GET body', async () => {
    const { done } = await enrich({ data: leads(3), webhook: `${receiver.url}/ok-enrichment` })
    await waitFor(() => receiver.on('/ok-enrichment').length === 1)
    const [call0] = receiver.on('/ok-enrichment')
    expect(call0?.contentType).toContain('application/json')
    expect(call0?.body).toEqual(done.body)
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(receiver.on('/ok-enrichment')).toHaveLength(1)
  })

  it('retries a failing receiver 5 times in total, spaced by the scaled schedule, then gives up', async () => {
    await enrich({ data: leads(1), webhook: `${receiver.url}/fail-always` })
    await waitFor(() => receiver.on('/fail-always').length === 5)
    await new Promise((resolve) => setTimeout(resolve, 400))
    const calls = receiver.on('/fail-always')
    expect(calls).toHaveLength(5)
    calls.slice(1).forEach((attempt, i) => {
      expect(attempt.at - (calls[i]?.at ?? 0)).toBeGreaterThanOrEqual((SCALED_DELAYS[i] ?? 0) - 2)
    })
  })

  it('stops at the first 2xx of any kind', async () => {
    await enrich({ data: leads(1), webhook: `${receiver.url}/fail-twice` })
    await waitFor(() => receiver.on('/fail-twice').length === 3)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(receiver.on('/fail-twice')).toHaveLength(3)
  })

  it('counts a receiver slower than the time-out as a failed attempt', async () => {
    await enrich({ data: leads(1), webhook: `${receiver.url}/slow` })
    await waitFor(() => receiver.on('/slow').length === 2)
    const { webhooks } = await sandbox.control.log()
    const attempts = webhooks.filter((attempt) => attempt.url.endsWith('/slow'))
    expect(attempts[0]).toMatchObject({ attempt: 1, ok: false, error: 'timeout' })
  })

  it('lead search posts its GET body once at terminated', async () => {
    const created = await call(sandbox, 'POST', '/lead_finder/async', {
      key: sandbox.demoKey,
      body: {
        filters: { contact_seniority: { include: ['vp'] } },
        limit: 3,
        webhook: `${receiver.url}/ok-leads`,
      },
    })
    const done = await pollUntil(
      () => call(sandbox, 'GET', `/lead_finder/async/${created.body.request_id}`, { key: sandbox.demoKey }),
      byStatus('terminated'),
    )
    await waitFor(() => receiver.on('/ok-leads').length === 1)
    expect(receiver.on('/ok-leads')[0]?.body).toEqual(done.body)
  })

  it('company search sends no webhook', async () => {
    const created = await call(sandbox, 'POST', '/company_finder/async', {
      key: sandbox.demoKey,
      body: { filters: { is_b2b: true }, limit: 2, webhook: `${receiver.url}/companies` },
    })
    await pollUntil(
      () =>
        call(sandbox, 'GET', `/company_finder/async/${created.body.request_id}`, { key: sandbox.demoKey }),
      byStatus('terminated'),
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(receiver.on('/companies')).toHaveLength(0)
  })
})

describe('per-lead contact_webhook', () => {
  it('pushes one flat body per lead with request_id when push_contact_individually is true', async () => {
    const { id, done } = await enrich({
      data: leads(4),
      push_contact_individually: true,
      contact_webhook: `${receiver.url}/contact-ok`,
      webhook: `${receiver.url}/batch-ok`,
    })
    await waitFor(() => receiver.on('/contact-ok').length === 4 && receiver.on('/batch-ok').length === 1)
    const pushes = receiver.on('/contact-ok').map((received) => received.body)
    // Pushes travel concurrently, so they are joined to rows by their custom field, not by arrival order.
    const rowKey = (row: { custom_fields: { value: string }[] }) => row.custom_fields[0]?.value
    for (const push of pushes) {
      const { request_id, ...row } = push
      expect(request_id).toBe(id)
      expect(row).toEqual(done.body.data.find((candidate: never) => rowKey(candidate) === rowKey(row)))
    }
    expect(new Set(pushes.map(rowKey)).size).toBe(4)
  })

  it('never retries a failed push and sends nothing without push_contact_individually', async () => {
    await enrich({
      data: leads(2),
      push_contact_individually: true,
      contact_webhook: `${receiver.url}/contact-fail`,
    })
    await enrich({ data: leads(2), contact_webhook: `${receiver.url}/contact-off` })
    await waitFor(() => receiver.on('/contact-fail').length === 2)
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(receiver.on('/contact-fail')).toHaveLength(2)
    expect(receiver.on('/contact-off')).toHaveLength(0)
  })
})
