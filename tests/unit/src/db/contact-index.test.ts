import { describe, expect, it } from 'vitest'
import { contactBlockSize, contactKeys, ContactIndex, keyBlockOf } from '@/db/contact-index'
import { keyHash } from '@/db/key-hash'
import { contactFromPayload } from '@/db/library-ingest'
import type { ContactRecord } from '@/db/records'

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

  it("finds by a word's first letters what looking through every person's words finds", () => {
    // A scan for every match skips people by their word starts; one with a limit looks at each.
    const { index } = indexOf(3 * contactBlockSize)
    const typed = [
      'z',
      'zo',
      'zoe',
      'brown1',
      'brown27',
      'p7@',
      'p7@c.com',
      'c.com',
      'c:id1',
      'amy brown2',
      'rown',
      'b z',
    ]
    for (const word of typed) {
      const search = words(...word.split(' '))
      const looked = index.scan(search, 0, 1e9).found
      expect(index.scan(search, 0, Infinity).found).toEqual(looked)
      // Again, now that every block's starts are made.
      expect(index.scan(search, 0, Infinity).found).toEqual(looked)
    }
    expect(index.scan(words('brown27'), 0, Infinity).found).toEqual([
      279, 278, 277, 276, 275, 274, 273, 272, 271, 270, 27,
    ])
  })

  it('counts facets a slice at a time as in one go, and stops where a block is not read yet', () => {
    const { index } = indexOf(2 * contactBlockSize + 50)
    const fresh = () => ({
      emailStatus: new Map(),
      seniority: new Map(),
      country: new Map(),
      changed: new Map(),
    })
    const match = { words: ['zoe'], facets: [['country', ['Spain']]] as ['country', string[]][] }
    const whole = fresh()
    expect(index.countFacets(match, whole, 0)).toBe(index.size)
    // Zoë: the 125 odd people; Spain: a third of them, 42 (every sixth from 3).
    expect(whole.country).toEqual(
      new Map([
        ['France', 83],
        ['Spain', 42],
      ]),
    )
    const sliced = fresh()
    let from = 0
    while (from < index.size) from = index.countFacets(match, sliced, from, 37)
    expect(sliced).toEqual(whole)

    const people = Array.from({ length: 3 * contactBlockSize }, (_, i) => person(i))
    const top = new ContactIndex('e')
    top.put(keyBlockOf(2, people.slice(2 * contactBlockSize)), 1)
    const partial = fresh()
    expect(top.countFacets(words('amy'), partial, 0)).toBe(contactBlockSize)
    expect([...partial.country.values()].reduce((sum, count) => sum + count, 0)).toBe(contactBlockSize / 2)
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

  it("tells from the index alone whose keys a slot may hold: never a person's own, rarely a stranger's", () => {
    // People of every kind of key: a contact id (in any case), an email alone, a name and domain
    // alone, accented and non-ASCII emails, a merged person whose email changed, one with no words.
    const shapes: Record<string, unknown>[] = [
      { contact_id: 'AbC-9', contact_email_address: 'Ada@C.com' },
      { contact_id: undefined, contact_email_address: 'Bob.Brown@Example.io' },
      {
        contact_id: undefined,
        contact_email_address: '',
        contact_first_name: 'Cy',
        contact_last_name: 'Day',
      },
      { contact_id: undefined, contact_email_address: 'zoë@éxample.fr' },
      { contact_id: undefined, contact_email_address: 'ＦＵＬＬ@c.com' },
      { contact_id: 42, contact_email_address: ' spaced@c.com ' },
    ]
    const people = shapes.map((changes, i) => person(i, changes))
    // Stored under an email, later found with another: the id keeps the first.
    people.push({
      ...person(6, { contact_id: undefined, contact_email_address: 'now@c.com' }),
      id: 'e:then@c.com',
    })
    people.push({ ...person(7, { contact_id: undefined }), words: [] })
    // First stored by name and domain, later found with an id: the id is among its words only.
    const named = person(8, { contact_id: 'Z9', contact_email_address: '' })
    people.push({ ...named, id: `n:${named.identity}` })
    // A contact id as the id, not among the words: told by the id.
    people.push({ ...person(9, { contact_id: 'XY-1', contact_email_address: '' }), words: ['ada'] })
    const index = new ContactIndex('e')
    index.put(keyBlockOf(0, people), 1)
    people.forEach((one, slot) => {
      for (const key of contactKeys(one)) expect(index.mayHold(slot, key), `${slot} ${key}`).toBe(true)
      // A key naming someone else is told apart where the index can tell.
      const other = people[(slot + 1) % people.length]!
      if (one.words.length > 0)
        for (const key of [`e:${other.emailLower}`, `n:${other.identity}`, 'c:nobody', 'e:nobody@c.com'])
          if (!contactKeys(one).includes(key) && !/[^ -~]/.test(key) && key.length > 2)
            expect(index.mayHold(slot, key), `${slot} ${key}`).toBe(false)
    })
    // What the index cannot tell is a maybe: an email beyond ASCII, a person without words.
    expect(index.mayHold(0, 'e:zoë@éxample.fr')).toBe(true)
    expect(index.mayHold(7, 'e:nobody@c.com')).toBe(true)
    // And a slot of a block whose keys it does not hold.
    expect(index.mayHold(5 * contactBlockSize, 'e:nobody@c.com')).toBe(true)
  })
})
