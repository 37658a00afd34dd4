// @vitest-environment node
import 'fake-indexeddb/auto'
import { describe, expect, it, vi } from 'vitest'
import { LeadkeeperDb } from '@/db/schema'
import type { Provenance } from '@/db/records'
import { contactFacetCounts, searchContacts } from '@/db/library-query'
import { upsertContacts } from '@/db/library-ingest'
import { contactBlockSize } from '@/db/contact-index'
import { allContacts, countContacts } from '../support/library'

/**
 * The library's writes as its worker runs them: no `document` here, as in a worker (the other
 * library tests run on a page of happy-dom). Inside a write's transaction nothing waits for a turn,
 * and every block is put at once.
 */

const freshDb = () => new LeadkeeperDb('t-' + crypto.randomUUID())
const source = (id: string, at: number): Provenance => ({ kind: 'list', id, label: id, at })

const person = (i: number, withId = false) => ({
  ...(withId ? { contact_id: 9_000 + i } : {}),
  contact_first_name: 'Ann',
  contact_last_name: `Ek${i}`,
  contact_email_address: `ann.ek${i}@ek.example`,
  contact_email_address_status: i % 3 === 0 ? 'deliverable' : 'catch_all',
  contact_location_country: i % 2 === 0 ? 'France' : 'Chile',
  company_domain: 'ek.example',
})

describe('the library written in its worker', () => {
  it('runs without a page', () => {
    expect(typeof document).toBe('undefined')
  })

  it('makes every put of a batch at once, with no turn inside its transaction', async () => {
    const database = freshDb()
    // 25 blocks of people: three requests of blocks (ten blocks a request).
    const count = 25 * contactBlockSize
    const order: string[] = []
    const bulkPut = database.peopleBlocks.bulkPut.bind(database.peopleBlocks)
    vi.spyOn(database.peopleBlocks, 'bulkPut').mockImplementation(((...args: Parameters<typeof bulkPut>) => {
      order.push('put')
      return bulkPut(...args).then((keys) => {
        order.push('stored')
        return keys
      })
    }) as typeof bulkPut)
    const revisions = vi.spyOn(database.contactRevs, 'get')
    await upsertContacts(
      Array.from({ length: count }, (_, i) => person(i)),
      source('a', 1),
      database,
    )
    expect(order).toEqual(['put', 'put', 'put', 'stored', 'stored', 'stored'])
    // The stored revisions, read by the index and by the write: no read for a turn (one per 1,000
    // people merged and per 2,000 keyed on a page).
    expect(revisions.mock.calls.length).toBeLessThanOrEqual(2)
    expect(await countContacts(database)).toBe(count)
  })

  it('keeps nothing of a batch whose put fails after others were made, and writes the next whole', async () => {
    const database = freshDb()
    const count = 25 * contactBlockSize
    const bulkPut = database.peopleBlocks.bulkPut.bind(database.peopleBlocks)
    let calls = 0
    const failing = vi.spyOn(database.peopleBlocks, 'bulkPut').mockImplementation(((
      ...args: Parameters<typeof bulkPut>
    ) => {
      calls += 1
      // The second request fails; the first was made before it, the third after.
      return calls === 2 ? Promise.reject(new Error('disk full')) : bulkPut(...args)
    }) as typeof bulkPut)
    const people = Array.from({ length: count }, (_, i) => person(i))
    await expect(upsertContacts(people, source('a', 1), database)).rejects.toThrow()
    expect(calls).toBe(3)
    expect(await countContacts(database)).toBe(0)
    expect(await allContacts(database)).toEqual([])
    expect((await contactFacetCounts(database)).country).toEqual([])

    failing.mockRestore()
    await upsertContacts(people, source('a', 2), database)
    expect(await countContacts(database)).toBe(count)
    expect((await contactFacetCounts(database)).country).toEqual([
      { value: 'Chile', count: count / 2 },
      { value: 'France', count: count / 2 },
    ])
    const found = await searchContacts({ prefix: 'ann.ek2499@' }, database)
    expect(found.items.map((one) => one.emailLower)).toEqual(['ann.ek2499@ek.example'])
  })

  it('merges people seen again in a later batch, counts them once, and finds them', async () => {
    const database = freshDb()
    await upsertContacts(
      Array.from({ length: 2_500 }, (_, i) => person(i)),
      source('a', 1),
      database,
    )
    // 500 of them again (2,000 to 2,499), now with contact ids, and 1,000 new people.
    await upsertContacts(
      Array.from({ length: 1_500 }, (_, i) => person(2_000 + i, true)),
      source('b', 2),
      database,
    )
    const people = await allContacts(database)
    expect(people).toHaveLength(3_500)
    expect(new Set(people.map((one) => one.emailLower)).size).toBe(3_500)
    const twice = people.find((one) => one.emailLower === 'ann.ek2100@ek.example')!
    expect(twice.sources.map((one) => one.id)).toEqual(['a', 'b'])
    expect(twice.words).toContain('c:11100')
    const counts = await contactFacetCounts(database)
    expect(counts.country).toEqual([
      { value: 'Chile', count: 1_750 },
      { value: 'France', count: 1_750 },
    ])
    expect(counts.emailStatus.reduce((sum, one) => sum + one.count, 0)).toBe(3_500)
    const found = await searchContacts({ prefix: 'ann.ek2100@' }, database)
    expect(found.items.map((one) => one.emailLower)).toEqual(['ann.ek2100@ek.example'])
  })
})
