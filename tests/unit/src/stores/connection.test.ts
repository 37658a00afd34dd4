// @vitest-environment node
// The backend runs here too, and it needs Node's own AbortSignal, which a DOM environment replaces.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAccountStore } from '@/stores/account'
import { useConnectionStore } from '@/stores/connection'
import { startTestBackend, type TestBackend } from '../../../support/backend'
import type { TestBridge } from '../../../support/bridge'
import { openWindow } from '../support/window'

/** The connection store over the real backend and a sandbox that goes out of reach, in process. */

let bed: TestBackend
let bridge: TestBridge

beforeEach(async () => {
  // The sandbox at its own pace, not faster: the client's back-off is scaled with it, and a balance
  // check that tries six times within milliseconds gives up before anyone could cancel it.
  bed = await startTestBackend(1)
  bridge = openWindow(bed)
})
afterEach(async () => {
  bridge.close()
  await bed.close()
})

const waitLong = { timeout: 20_000, interval: 50 }

describe('the connection store', () => {
  it('says the service is out of reach in plain words with the next attempt, then comes back by itself', async () => {
    const connection = useConnectionStore()
    const account = useAccountStore()
    await connection.load()
    await account.refresh()
    expect(connection.status).toBe('online')
    expect(connection.waitingLine).toBeNull()
    const balance = account.account!.creditsLeft

    await bed.sandbox.control.outage(2_500)
    const refreshing = account.refresh()
    await vi.waitFor(() => expect(connection.status).toBe('unreachable'), waitLong)
    expect(connection.outOfReach).toBe(true)
    expect(connection.waitingLine).toMatch(/^Can't reach the service — retrying (in \d+ s|now|soon)$/)
    await refreshing
    // The balance check waited and tried again; the service answered once back.
    await vi.waitFor(() => expect(connection.status).toBe('online'), waitLong)
    expect(connection.outOfReach).toBe(false)
    await account.refresh()
    expect(account.account!.creditsLeft).toBe(balance)
  }, 30_000)

  it('ends a call that waits to try again as cancelled when asked', async () => {
    const connection = useConnectionStore()
    const account = useAccountStore()
    await account.refresh()
    await bed.sandbox.control.outage(10_000)
    const refreshing = account.refresh()
    await vi.waitFor(() => expect(connection.status).toBe('unreachable'), waitLong)
    await vi.waitFor(async () => expect(await connection.cancelWaits()).toBeGreaterThan(0), waitLong)
    await refreshing
    expect(account.loading).toBe(false)
    // A cancel is an outcome, not a failure to show.
    expect(account.error).toBeNull()
  }, 30_000)

  it('never calls the sandbox offline: it runs on this computer', async () => {
    const connection = useConnectionStore()
    await connection.load()
    expect(connection.view?.mode).toBe('sandbox')
    connection.browserOnline = false
    expect(connection.status).not.toBe('offline')
  })
})
