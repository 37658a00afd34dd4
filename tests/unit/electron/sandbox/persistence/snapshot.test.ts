import { describe, expect, it } from 'vitest'
import { sandboxState, type SandboxState } from '../../../../../electron/sandbox/persistence/schema'
import { enrichLead } from '../../../../../electron/sandbox/jobs/enrichment'
import { searchedLead } from '../../../../../electron/sandbox/jobs/lead-search'
import { decodeState } from '../../../../../electron/sandbox/persistence/snapshot'
import { resolveOptions } from '../../../../../electron/sandbox/options'
import { buildWorld } from '../../../../../electron/sandbox/world'

const world = buildWorld(7, { companies: 5, peoplePerCompany: 3 })
const person = world.people[0]!
const ctx = {
  world: () => world,
  options: resolveOptions({ seed: 7, worldCompanies: 5, worldPeoplePerCompany: 3 }),
}

const filters = {
  lists: [['contact_seniority', { include: ['vp'], exclude: ['cxo'] }]],
  integers: [['company_headcount_min', 10]],
  booleans: [['is_b2b', true]],
  texts: [['company_name', 'acme']],
}

function state(overrides: Partial<SandboxState> = {}): SandboxState {
  return sandboxState.parse({
    version: 1,
    savedAt: '2026-01-01T00:00:00.000Z',
    world: { seed: 7, companies: 5, peoplePerCompany: 3 },
    accounts: {
      nextId: 2,
      accounts: [
        {
          id: 'acct_1',
          email: 'a@example.com',
          tenths: 123,
          phone: true,
          catchAll: false,
          freeLeadSearches: 1,
          freeCompanySearches: null,
        },
      ],
      keys: [{ key: 'lk_1', accountId: 'acct_1', active: false }],
    },
    enrichments: [],
    leadSearches: [
      {
        id: 'search',
        accountId: 'acct_1',
        status: 'processing',
        stuck: false,
        consumedTenths: 10,
        nextAt: 0,
        filters,
        limit: 5,
        offset: 0,
        maxLeads: 5,
        flags: { email: true, phone: false, verifyCatchAll: false },
        webhook: null,
        searched: true,
        matchIds: [person.id],
        total: 1,
        done: 1,
      },
    ],
    companySearches: [],
    ...overrides,
  })
}

describe('decodeState', () => {
  it('rebuilds filters as maps and matches as the people of the world', () => {
    const [search] = decodeState(state(), ctx).leadSearches
    expect(search?.matches).toEqual([person])
    expect(search?.rows).toEqual([searchedLead(ctx, person, search!.flags, () => false).row])
    expect(search?.filters.lists.get('contact_seniority')).toEqual({ include: ['vp'], exclude: ['cxo'] })
    expect(search?.filters.integers.get('company_headcount_min')).toBe(10)
    expect(search?.filters.booleans.get('is_b2b')).toBe(true)
    expect(search?.filters.texts.get('company_name')).toBe('acme')
  })

  it('derives a row saved as a later answer about a mover as the moved answer, the others as first answers', () => {
    const everyone = { ...ctx, options: { ...ctx.options, moverShare: 1 } }
    const saved = state({
      enrichments: [
        {
          id: 'enrichment',
          accountId: 'acct_1',
          status: 'terminated',
          stuck: false,
          consumedTenths: 0,
          nextAt: 0,
          leads: [0, 1].map(() => ({
            first_name: person.firstName,
            last_name: person.lastName,
            company_domain: person.company.domain,
          })),
          done: 2,
          later: [1],
          flags: { email: true, phone: false, verifyCatchAll: false },
          webhook: null,
          contactWebhook: null,
        },
      ],
    })
    const [enrichment] = decodeState(saved, everyone).enrichments
    const lead = saved.enrichments[0]!.leads[0]
    const flags = saved.enrichments[0]!.flags
    expect(enrichment?.later).toEqual([1])
    expect(enrichment?.rows).toEqual([
      enrichLead(everyone, lead, flags, () => false).row,
      enrichLead(everyone, lead, flags, () => true).row,
    ])
    expect(enrichment?.rows[1]).not.toEqual(enrichment?.rows[0])
    // A state saved before movers were kept holds no `later`: every row is a first answer.
    delete saved.enrichments[0]!.later
    expect(decodeState(saved, everyone).enrichments[0]?.rows[1]).toEqual(enrichment?.rows[0])
  })

  it('refuses a request of an account that is not saved', () => {
    const saved = state()
    saved.leadSearches[0]!.accountId = 'acct_9'
    expect(() => decodeState(saved, ctx)).toThrow(/unknown account acct_9/)
  })

  it('refuses more results than inputs', () => {
    const saved = state()
    saved.leadSearches[0]!.done = 2
    expect(() => decodeState(saved, ctx)).toThrow(/2 results for 1 inputs/)
  })

  it('refuses a person the world does not hold', () => {
    const saved = state()
    saved.leadSearches[0]!.matchIds = [42]
    expect(() => decodeState(saved, ctx)).toThrow(/person 42/)
  })
})
