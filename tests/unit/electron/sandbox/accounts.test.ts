import { describe, expect, it } from 'vitest'
import { Accounts, decimalCredits, wholeCredits } from '../../../../electron/sandbox/accounts'

describe('Accounts', () => {
  it('keeps tenths exact and never lets a balance go negative', () => {
    const accounts = new Accounts(1000, 100)
    const { accountId } = accounts.create({ credits: 0.3 })
    const account = accounts.require(accountId)
    expect(accounts.charge(account, 1, 'lead_profile')).toBe(true)
    expect(accounts.charge(account, 1, 'lead_profile')).toBe(true)
    expect(accounts.charge(account, 2, 'x')).toBe(false)
    expect(account.tenths).toBe(1)
    expect(accounts.charges.map((c) => c.credits)).toEqual([0.1, 0.1])
    accounts.setCredits(accountId, -3)
    expect(account.tenths).toBe(0)
  })

  it('rounds integer fields down and prints decimal strings with one decimal', () => {
    expect(wholeCredits(99)).toBe(9)
    expect(decimalCredits(99)).toBe('9.9')
    expect(decimalCredits(100)).toBe('10.0')
  })

  it('resolves only active keys and notifies credits', () => {
    const accounts = new Accounts(10, 100)
    const credited: string[] = []
    accounts.onCredit((id) => credited.push(id))
    const { accountId, key } = accounts.create({})
    expect(accounts.byKey(key)?.id).toBe(accountId)
    accounts.deactivateKey(key)
    expect(accounts.byKey(key)).toBeNull()
    expect(accounts.byKey(null)).toBeNull()
    accounts.topUp(accountId, 5)
    expect(credited).toEqual([accountId])
  })
})
