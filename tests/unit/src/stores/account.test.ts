// @vitest-environment node
// The backend runs here too, and it needs Node's own AbortSignal, which a DOM environment replaces.
import 'fake-indexeddb/auto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { searchContacts } from '@/db/library-query'
import { useAccountStore } from '@/stores/account'
import { useLookupsStore, type LookupOutcome } from '@/stores/lookups'
import { useSettingsStore } from '@/stores/settings'
import { startTestBackend, type TestBackend } from '../../../support/backend'
import type { TestBridge } from '../../../support/bridge'
import { openWindow } from '../support/window'

/** The settings, account and lookups stores over the real backend and sandbox, in process. */

let bed: TestBackend
let bridge: TestBridge

beforeEach(async () => {
  bed = await startTestBackend()
  bridge = openWindow(bed)
})
afterEach(async () => {
  bridge.close()
  await bed.close()
})

describe('the settings and account stores', () => {
  it('read the sandbox account, and warn of a low balance once the threshold is set above it', async () => {
    const settings = useSettingsStore()
    const account = useAccountStore()
    await settings.load()
    await account.refresh()
    expect(settings.view?.mode).toBe('sandbox')
    const left = account.account!.creditsLeft
    expect(left).toBeGreaterThan(0)
    expect(account.isLow).toBe(false)
    expect(await settings.update({ lowBalanceThreshold: left + 1 })).toBeNull()
    expect(settings.view?.lowBalanceThreshold).toBe(left + 1)
    expect(account.isLow).toBe(true)
  })

  it('keep a refused setting out and say why', async () => {
    const settings = useSettingsStore()
    await settings.load()
    const before = settings.view!.lowBalanceThreshold
    const refused = await settings.update({ lowBalanceThreshold: -5 })
    expect(refused).toMatchObject({ code: 'invalid_input' })
    expect(settings.view!.lowBalanceThreshold).toBe(before)
  })
})

describe('the lookups store', () => {
  it('files every profile found in the library, says "not found" plainly, and the balance follows', async () => {
    const lookups = useLookupsStore()
    const account = useAccountStore()
    await account.refresh()
    const before = account.account!.creditsLeft
    const outcomes: LookupOutcome[] = []
    for (let i = 0; i < 12; i++)
      outcomes.push(
        await lookups.lookupLead({
          networkUrl: '',
          firstName: `Ada${i}`,
          lastName: `Lovelace${i}`,
          domain: `analytical${i % 4}.example.com`,
          company: '',
        }),
      )
    outcomes.push(
      await lookups.lookupLead({
        networkUrl: '',
        firstName: 'Nobody',
        lastName: 'Atall',
        domain: 'nobody.invalid',
        company: '',
      }),
    )
    expect(outcomes.at(-1)).toEqual({
      kind: 'lead',
      status: 'not_found',
      query: 'Nobody Atall @ nobody.invalid',
    })
    expect(outcomes.every((outcome) => outcome.status !== 'error')).toBe(true)
    const found = outcomes.filter((outcome) => outcome.status === 'found')
    expect(found.length).toBeGreaterThan(0)
    for (const outcome of found) {
      const email = String(outcome.profile['contact_email_address'] ?? '')
      const name = String(outcome.profile['contact_full_name'] ?? '')
      const page = await searchContacts({ prefix: email || name })
      expect(page.items.some((contact) => contact.fullName === name)).toBe(true)
      expect(page.items.find((contact) => contact.fullName === name)?.sources[0]?.kind).toBe('lookup')
    }
    await account.refresh()
    expect(account.account!.creditsLeft).toBeLessThan(before)
    expect(lookups.lead).toEqual(outcomes.at(-1))
  })

  it('refuses a lookup that names nobody, says why, and stores nothing', async () => {
    const lookups = useLookupsStore()
    const known = (await searchContacts({})).items.length
    const outcome = await lookups.lookupCompany({ domain: '', networkUrl: '' })
    expect(outcome.status).toBe('error')
    if (outcome.status === 'error') expect(outcome.error.message.length).toBeGreaterThan(10)
    expect((await searchContacts({})).items).toHaveLength(known)
  })
})
