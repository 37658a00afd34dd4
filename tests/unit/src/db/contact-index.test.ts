import { describe, expect, it } from 'vitest'
import { contactBlockSize, ContactIndex, keyBlockOf, keyHash } from '@/db/contact-index'
import { contactFromPayload } from '@/db/library-ingest'
import type { ContactRecord } from '@/db/schema'

function person(i: number, changes: Record<string, unknown> = {}): ContactRecord {
  const fields = contactFromPayload({
    contact_id: `id${i}`,
    contact_first_name: i % 2 ? 'Zoë' : 'Amy',
    contact_last_name: `Brown${i}`,
    contact_email_address: `p${i}@c.com`,
    contact_location_country: i % 3 ? 'France' : 'Spain',
    company_domain: 'c.com',
    ...changes,
  })!
  return { ...fields, sources: [], firstSeenAt: i, updatedAt: i }
}

/** An index of `count` people, slot i holding person i. */
function indexOf(count: number): { index: ContactIndex; people: ContactRecord[] } {
  const people = Array.from({ length: count }, (_, i) => person(i))
  const index = new ContactIndex('e')
  for (let block = 0; block * contactBlockSize < count; block++)
    index.put(keyBlockOf(block, people.slice(block * contactBlockSize, (block + 1) * contactBlockSize)), 1)
  return { index, people }
}

const words = (...typed: string[]) => ({ words: typed, facets: [] })

describe('the contact index', () => {
  it('finds each person by every key they are stored under, and by id exactly', () => {
    const { index, people } = indexOf(120)
    const ada = people[77]!
    for (const key of ['c:id77', 'e:p77@c.com', `n:${ada.identity}`])
      expect(index.candidates(key)).toContain(77)
    expect(index.slotOfId('c:id77')).toBe(77)
    expect(index.slotOfId('c:id777')).toBeUndefined()
    expect(index.byIdentity([ada.identity, 'nobody@c.com'])).toEqual(new Map([[ada.identity, 77]]))
    expect(index.size).toBe(120)
    expect(keyHash('anything')).toBeGreaterThan(0)
  })

  it('scans newest first by word prefixes and facets, within a budget, from where it stopped', () => {
    const { index } = indexOf(120)
    // "zoe brown1": Zoë (odd) and a surname starting Brown1: 119, 117, …, 101, 19, …, 11, 1.
    const all = index.scan(words('zoe', 'brown1'), 0, Infinity)
    expect(all.found).toEqual([
      ...Array.from({ length: 10 }, (_, i) => 119 - 2 * i),
      ...Array.from({ length: 5 }, (_, i) => 19 - 2 * i),
      1,
    ])
    expect(index.scan(words('zoe', 'brown1'), 0, 3).found).toEqual([119, 117, 115])
    // A word must start a word of the person: "rown" starts none.
    expect(index.scan(words('rown'), 0, Infinity).found).toEqual([])
    const spain = index.scan({ words: ['amy'], facets: [['country', ['Spain']]] }, 0, Infinity).found
    expect(spain).toEqual(Array.from({ length: 20 }, (_, i) => 114 - 6 * i))
    // Ten people checked, from the 100th newest on: slots 19 down to 10.
    const slice = index.scan(words('brown'), 100, Infinity, 10)
    expect(slice).toEqual({ found: Array.from({ length: 10 }, (_, i) => 19 - i), next: 110 })
  })

  it('stops where a block is not read yet, for an index read from the top down', () => {
    const size = contactBlockSize
    const people = Array.from({ length: 3 * size }, (_, i) => person(i))
    const index = new ContactIndex('e')
    index.put(keyBlockOf(2, people.slice(2 * size)), 1)
    const top = index.scan(words('brown'), 0, Infinity)
    expect(top).toEqual({ found: Array.from({ length: size }, (_, i) => 3 * size - 1 - i), next: size })
  })

  it('keeps "newest" fixed across slices while people are added', () => {
    const size = contactBlockSize
    const { index, people } = indexOf(size + 10)
    const first = index.scan(words('brown'), 0, Infinity, 30, size + 10)
    index.put(keyBlockOf(1, [...people.slice(size, size + 10), person(size + 10)]), 2)
    const rest = index.scan(words('brown'), first.next, Infinity, Infinity, size + 10)
    expect([...first.found, ...rest.found]).toEqual(Array.from({ length: size + 10 }, (_, i) => size + 9 - i))
    expect(index.size).toBe(size + 11)
  })

  it('forgets the keys a person no longer has, and never goes back to an older revision of a block', () => {
    const size = contactBlockSize
    const { index, people } = indexOf(size + 10)
    const slot = size + 3
    const moved = people.slice(size, size + 10)
    moved[3] = person(slot, { contact_email_address: 'new@c.com' })
    index.put(keyBlockOf(1, moved), 2)
    expect(index.candidates(`e:p${slot}@c.com`)).toEqual([])
    expect(index.candidates('e:new@c.com')).toEqual([slot])
    expect(index.candidates(`c:id${slot}`)).toEqual([slot])
    // A late reader's revision 1 of the same block changes nothing.
    index.put(keyBlockOf(1, people.slice(size, size + 10)), 1)
    expect(index.candidates('e:new@c.com')).toEqual([slot])
    expect(index.revs).toEqual([1, 2])
  })
})
