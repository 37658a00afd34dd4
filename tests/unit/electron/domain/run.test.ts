import { describe, expect, it } from 'vitest'
import { leadOf } from '../../../../electron/domain/person'
import { decideRun, type RunRowInput } from '../../../../electron/domain/run'

const day = 24 * 60 * 60 * 1000
const now = 1_000 * day

function row(index: number, name: string, domain: string, extra: Partial<RunRowInput> = {}): RunRowInput {
  const [first, last] = name.split(' ')
  return {
    key: `k${index}`,
    index,
    lead: leadOf({ first_name: first, last_name: last, company_domain: domain }),
    ...extra,
  }
}

const email = { email: true, phone: false, catchAll: false, now }
const phone = { email: false, phone: true, catchAll: false, now }

describe('decideRun', () => {
  it('sends each person once with every row that names them, and leaves invalid and skipped rows out', () => {
    const plan = decideRun(
      [
        row(0, 'Ada Lovelace', 'acme.io'),
        row(1, 'ADA lovelace', 'www.acme.io'),
        row(2, 'Alan Turing', 'not a domain'),
        row(3, 'Grace Hopper', 'navy.mil', { skip: true }),
      ],
      email,
    )
    expect(plan.decisions.map((decision) => [decision.outcome, decision.send])).toEqual([
      ['send', ['email']],
      ['send', ['email']],
      ['invalid', []],
      ['skipped', []],
    ])
    expect(plan.counts).toMatchObject({ rows: 4, people: 1, rowsSent: 2, invalid: 1, skipped: 1, copied: 0 })
  })

  it('asks for phones after emails, and only for the rows with no phone answer yet', () => {
    const plan = decideRun(
      [
        row(0, 'Ada Lovelace', 'acme.io', { answers: { email: now } }),
        row(1, 'Alan Turing', 'bletchley.uk', { answers: { email: now, phone: now } }),
        row(2, 'Grace Hopper', 'navy.mil'),
      ],
      phone,
    )
    expect(plan.decisions.map((decision) => decision.send)).toEqual([['phone'], [], ['phone']])
    expect(plan.counts).toMatchObject({
      people: 2,
      answered: 1,
      peopleByKind: { email: 0, phone: 2, catchAll: 0 },
    })
  })

  it('copies what a row of the same person already holds instead of sending it again', () => {
    const plan = decideRun(
      [row(0, 'Ada Lovelace', 'acme.io', { answers: { email: now } }), row(1, 'Ada Lovelace', 'acme.io')],
      { ...email, phone: true },
    )
    expect(plan.decisions[1]).toMatchObject({ send: ['phone'], twins: [{ index: 0, kinds: ['email'] }] })
    expect(plan.decisions[0]).toMatchObject({ send: ['phone'], twins: [] })
    expect(plan.counts.peopleByKind).toEqual({ email: 0, phone: 1, catchAll: 0 })
  })

  it('takes from the library what it holds, and sends only the rest', () => {
    const library = { contactId: 'c:1', answers: { email: now - 10 * day } }
    const plan = decideRun(
      [row(0, 'Ada Lovelace', 'acme.io'), row(1, 'Alan Turing', 'bletchley.uk')],
      { ...email, phone: true },
      (identity) => (identity === 'ada lovelace@acme.io' ? library : undefined),
    )
    expect(plan.decisions[0]).toMatchObject({
      send: ['phone'],
      library: { contactId: 'c:1', kinds: ['email'] },
    })
    expect(plan.decisions[1]).toMatchObject({ send: ['email', 'phone'] })
    const emailOnly = decideRun([row(0, 'Ada Lovelace', 'acme.io')], email, () => library)
    expect(emailOnly.decisions[0]).toMatchObject({ outcome: 'copy', send: [] })
    expect(emailOnly.counts).toMatchObject({ fromLibrary: 1, people: 0 })
  })

  it('asks again what is older than the refresh age, counted apart', () => {
    const rows = [
      row(0, 'Ada Lovelace', 'acme.io', { answers: { email: now - 400 * day } }),
      row(1, 'Alan Turing', 'bletchley.uk', { answers: { email: now - 10 * day } }),
    ]
    expect(decideRun(rows, email).counts).toMatchObject({ people: 0, answered: 2 })
    const again = decideRun(rows, { ...email, refreshAfterDays: 365 })
    expect(again.decisions.map((decision) => decision.send)).toEqual([['email'], []])
    expect(again.counts).toMatchObject({ people: 1, refreshed: 1, answered: 1 })
  })

  it('re-verifying catch-all addresses asks for the email with it', () => {
    const plan = decideRun([row(0, 'Ada Lovelace', 'acme.io', { answers: { email: now } })], {
      ...email,
      catchAll: true,
    })
    expect(plan.decisions[0]!.send).toEqual(['email', 'catchAll'])
  })

  it('holds back people whose rows were given up while their outcome was unknown, unless told to send them', () => {
    const rows = [
      row(0, 'Ada Lovelace', 'acme.io', { givenUp: true }),
      row(1, 'Alan Turing', 'bletchley.uk', { givenUp: true }),
      row(2, 'Alan Turing', 'bletchley.uk'),
    ]
    const held = decideRun(rows, email)
    expect(held.decisions.map((decision) => decision.outcome)).toEqual(['held', 'send', 'send'])
    // Alan goes anyway for the row that was never given up, so his given-up twin rides along, free.
    expect(held.counts).toMatchObject({ held: 1, people: 1, rowsSent: 2, givenUpBefore: 1 })
    const resent = decideRun(rows, { ...email, resendGivenUp: true })
    expect(resent.counts).toMatchObject({ held: 0, people: 2, rowsSent: 3, givenUpBefore: 2 })
  })

  it('asks the library by the name of any row of the person, when the first has only a profile URL', () => {
    const byUrl = { first_name: '', last_name: '', network_url: 'linkedin.com/in/ada' }
    const rows: RunRowInput[] = [
      { key: 'k0', index: 0, lead: leadOf(byUrl) },
      {
        key: 'k1',
        index: 1,
        lead: leadOf({ ...byUrl, first_name: 'Ada', last_name: 'Lovelace', company_domain: 'acme.io' }),
      },
    ]
    const library = { contactId: 'c:1', answers: { email: now } }
    const plan = decideRun(rows, email, (identity) =>
      identity === 'ada lovelace@acme.io' ? library : undefined,
    )
    expect(plan.decisions.map((decision) => decision.outcome)).toEqual(['copy', 'copy'])
    expect(plan.counts).toMatchObject({ people: 0, fromLibrary: 2 })
  })
})
