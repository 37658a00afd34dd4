import { dataKinds, type Answers } from '@domain/kinds'
import { codedColumn } from './block-shape'
import { contactAnswers, contactFacets } from './library-shape'
import type { ContactFacet } from './records'
import type { ContactKeyBlock, ContactRecord } from './records'
import { keyHash } from './key-hash'
import { SlotTable } from './slot-table'
import { fold, type LibraryMatch } from './words'

/**
 * What finds the library's people without reading them: each block's ids, identities, search words,
 * facets and key hashes, held in memory and kept up to date by block revision. One IndexedDB record
 * per person costs a fixed price to write whatever it holds, so people are stored in blocks
 * (`contactBlockSize` to a record) and this index, rebuilt from small key blocks, does what
 * IndexedDB's per-record indexes did: find a person by any key, search by words and facets.
 */

/**
 * People to a block: enough that Chromium keeps a block in a file of its own beside its database
 * rather than in the database's log, which writes it faster; few enough that a search's first
 * page, read from many blocks, stays quick (`npm run bench -- --only library`).
 */
export const contactBlockSize = 100

export const contactBlockOf = (slot: number): number => Math.floor(slot / contactBlockSize)

/** Keys hashed per person in a key block: id, email, identity, contact-id word (0 when absent). */
const keysPerContact = 4

/** When a person's kinds of data were answered, `dataKinds` in order, NaN where never. */
function answersColumn(contacts: readonly (ContactRecord | undefined)[]): Float64Array {
  const column = new Float64Array(contacts.length * dataKinds.length).fill(NaN)
  contacts.forEach((contact, at) => {
    if (!contact) return
    const answers = contactAnswers(contact)
    dataKinds.forEach((kind, k) => {
      const when = answers[kind]
      if (when !== undefined) column[at * dataKinds.length + k] = when
    })
  })
  return column
}

/**
 * Every key a person is found by when a payload names them (`library-ingest.ts`): the record's id,
 * its email, its 'first last@domain' identity and its contact-id word.
 */
export function contactKeys(
  contact: Pick<ContactRecord, 'id' | 'emailLower' | 'identity'> & { words?: readonly string[] },
): string[] {
  const id = contact.id
  const keys = [id]
  // Each kind of key has its own prefix: only the id (of any kind) can be one of the others.
  if (contact.emailLower) {
    const email = `e:${contact.emailLower}`
    if (email !== id) keys.push(email)
  }
  if (contact.identity) {
    const identity = `n:${contact.identity}`
    if (identity !== id) keys.push(identity)
  }
  const idWord = id.startsWith('c:') ? fold(id) : contact.words?.find((word) => word.startsWith('c:'))
  if (idWord && idWord !== id) keys.push(idWord)
  return keys
}

/** The key block of a block's people: written with the block, in the same transaction. */
export function keyBlockOf(block: number, contacts: readonly (ContactRecord | undefined)[]): ContactKeyBlock {
  const hashes = new Uint32Array(contacts.length * keysPerContact)
  contacts.forEach((contact, at) => {
    if (!contact) return
    contactKeys(contact).forEach((key, k) => (hashes[at * keysPerContact + k] = keyHash(key)))
  })
  const domains = new Uint32Array(contacts.length)
  contacts.forEach((contact, at) => {
    if (contact?.domainLower) domains[at] = keyHash(contact.domainLower)
  })
  const facets = {} as ContactKeyBlock['facets']
  for (const facet of contactFacets)
    facets[facet] = codedColumn(contacts.map((contact) => contact?.[facet] ?? ''))
  return {
    block,
    ids: contacts.map((contact) => contact?.id ?? ''),
    identities: contacts.map((contact) => contact?.identity ?? ''),
    // A leading space before each word: a search word starts a word where ' ' + it occurs.
    words: contacts.map((contact) => (contact ? ` ${(contact.words ?? []).join(' ')}` : '')),
    answers: answersColumn(contacts),
    hashes,
    domains,
    facets,
  }
}

/** A company domain as a scan checks it: its hash, and the word it is among a person's words. */
interface DomainNeedle {
  hash: number
  word: string
}

function domainNeedle(match: LibraryMatch<ContactFacet>): DomainNeedle | null {
  return match.domain ? { hash: keyHash(match.domain), word: ` ${fold(match.domain)}` } : null
}

/**
 * Whether the person at a block's place is at the domain: their domain's hash, then the domain among
 * their words as a whole word (two domains may share a hash; a word may start with the domain).
 */
function atDomain(block: ContactKeyBlock, at: number, domain: DomainNeedle): boolean {
  if (block.domains[at] !== domain.hash) return false
  const words = block.words[at]!
  for (let from = words.indexOf(domain.word); from >= 0; from = words.indexOf(domain.word, from + 1)) {
    const end = from + domain.word.length
    if (end === words.length || words.charCodeAt(end) === 32) return true
  }
  return false
}

type AllowedCodes = [Uint8Array | Uint16Array, Uint8Array][]

/** Whether the person at a block's place has a wanted value of every facet searched. */
function allowedAt(allowed: AllowedCodes, at: number): boolean {
  for (const [codes, ok] of allowed) if (ok[codes[at]!] !== 1) return false
  return true
}

/** Whether the person at a block's place has a wanted value of every facet searched. */
function holdsFacets(
  block: ContactKeyBlock,
  at: number,
  facets: readonly [ContactFacet, string[]][],
): boolean {
  for (const [facet, values] of facets) {
    const column = block.facets[facet]
    if (!values.includes(column.values[column.codes[at]!]!)) return false
  }
  return true
}

function holdsAll(words: string, needles: readonly string[]): boolean {
  for (const needle of needles) if (!words.includes(needle)) return false
  return true
}

/**
 * Numbers a person's words string gets, three to a person (`startBits`): which first letters and
 * which first two letters its words start with, a bit each (hashed to 32 and 64 bits). A person
 * lacking a bit a search word needs cannot hold it, which one test of three numbers tells, cheaper
 * than looking through the string; a search's facet counts look at nearly everyone's words
 * (`npm run bench -- --only library`). The numbers are made once per block and revision.
 */
const startsPerPerson = 3

/** Writes the bits of the word starts of `words` (each word after a space) at `at` of `into`. */
function startBits(words: string, into: Int32Array, at: number): void {
  let first = 0
  let low = 0
  let high = 0
  for (let space = words.indexOf(' '); space >= 0; space = words.indexOf(' ', space + 1)) {
    if (space + 1 >= words.length) break
    const c0 = words.charCodeAt(space + 1)
    first |= 1 << (c0 & 31)
    if (space + 2 >= words.length) continue
    const c1 = words.charCodeAt(space + 2)
    if (c1 === 32) continue
    const bit = (c0 * 31 + c1) & 63
    if (bit < 32) low |= 1 << bit
    else high |= 1 << (bit - 32)
  }
  into[at] = first
  into[at + 1] = low
  into[at + 2] = high
}

/** The bits every person holding all these search words (each after its space) has. */
function neededStarts(needles: readonly string[]): Int32Array {
  const bits = new Int32Array(startsPerPerson)
  startBits(needles.join(''), bits, 0)
  return bits
}

/** Whether the person whose bits start at `at` has every bit needed. */
function mayStart(starts: Int32Array, at: number, needed: Int32Array): boolean {
  return (
    (starts[at]! & needed[0]!) === needed[0] &&
    (starts[at + 1]! & needed[1]!) === needed[1] &&
    (starts[at + 2]! & needed[2]!) === needed[2]
  )
}

/** The library's people in memory, by slot: slot s is the (s+1)-th person first stored. */
export class ContactIndex {
  /** Each block's revision as loaded; a stored revision that differs means reload that block. */
  readonly revs: number[] = []

  /** The stored library this index was built from (`ContactRevisions.epoch`). */
  constructor(readonly epoch: string) {}
  private readonly blocks: ContactKeyBlock[] = []
  /** Each block's people's word starts (`startBits`), made by the first full match reading it. */
  private readonly starts: (Int32Array | undefined)[] = []
  /** Key hash → slots. */
  private readonly byHash = new SlotTable()
  /** Bumped at every block taken in: the slots of a domain made before it are made again. */
  private taken = 0
  /** The slots of the people at a few domains, by domain hash, as of `taken` (`slotsOfDomain`). */
  private readonly domains = new Map<number, { taken: number; slots: Int32Array }>()
  private slots = 0

  /** How many people the library holds. */
  get size(): number {
    return this.slots
  }

  /** Makes room for a library of this many people (the index grows as needed otherwise). */
  reserve(people: number): void {
    this.byHash.reserve(people * keysPerContact)
  }

  /** Takes a block's keys at a revision, unless a later revision of it is in already. */
  put(keys: ContactKeyBlock, rev: number): void {
    const known = this.revs[keys.block]
    if (known !== undefined && known >= rev) return
    const old = this.blocks[keys.block]
    if (old) this.hashes(old, (hash, slot) => this.byHash.remove(hash, slot))
    this.blocks[keys.block] = keys
    this.starts[keys.block] = undefined
    this.revs[keys.block] = rev
    this.hashes(keys, (hash, slot) => this.byHash.add(hash, slot))
    this.taken += 1
    this.slots = Math.max(this.slots, keys.block * contactBlockSize + keys.ids.length)
  }

  /** Whether a block's keys are in (at any revision). */
  holds(block: number): boolean {
    return this.blocks[block] !== undefined
  }

  /** The slots a key may be at (a hash shared by other keys gives theirs too: check the record). */
  candidates(key: string): number[] {
    return this.byHash.find(keyHash(key))
  }

  /**
   * Whether the person at a slot may be found by this key (`contactKeys`), told from the index alone:
   * a hash's slots are often other people's (30 bits; at a million people a batch of 10,000 met some
   * forty strangers' slots, forty blocks read for nothing). Exact for an id or an identity; an email
   * or a contact id is among the person's words, folded, as the key spells it when it is ASCII;
   * anything else is a maybe.
   */
  mayHold(slot: number, key: string): boolean {
    const block = this.blocks[contactBlockOf(slot)]
    if (!block) return true
    const at = slot % contactBlockSize
    const id = block.ids[at] ?? ''
    if (id === key) return true
    const value = key.slice(2)
    if (key.startsWith('n:')) return block.identities[at] === value
    if (key.startsWith('c:') && id.startsWith('c:') && fold(id) === key) return true
    if (!key.startsWith('e:') && !key.startsWith('c:')) return true
    if (/[^ -~]/.test(value)) return true
    // The words hold an email bare, a contact id with its 'c:'.
    const word = key.startsWith('c:') ? key : value
    const words = block.words[at] ?? ''
    return words.trim() === '' || `${words} `.includes(` ${word} `)
  }

  slotOfId(id: string): number | undefined {
    return this.candidates(id).find((slot) => this.idAt(slot) === id)
  }

  idAt(slot: number): string {
    return this.blocks[contactBlockOf(slot)]?.ids[slot % contactBlockSize] ?? ''
  }

  identityAt(slot: number): string {
    return this.blocks[contactBlockOf(slot)]?.identities[slot % contactBlockSize] ?? ''
  }

  answersAt(slot: number): Answers {
    const column = this.blocks[contactBlockOf(slot)]?.answers
    const answers: Answers = {}
    if (!column) return answers
    dataKinds.forEach((kind, k) => {
      const when = column[(slot % contactBlockSize) * dataKinds.length + k]!
      if (!Number.isNaN(when)) answers[kind] = when
    })
    return answers
  }

  /** The slots of people with these identities ('first last@domain'), by identity. */
  byIdentity(identities: readonly string[]): Map<string, number> {
    const found = new Map<string, number>()
    if (this.slots === 0) return found
    for (const identity of identities) {
      const slot = this.candidates(`n:${identity}`).find((at) => this.identityAt(at) === identity)
      if (slot !== undefined && !found.has(identity)) found.set(identity, slot)
    }
    return found
  }

  /**
   * Matches of a search, newest first, from the `from`-th person in that order: at most `limit`,
   * checking at most `budget` people. Returns the slots found and where to go on from: short of
   * the end when a block is not read yet. `size` fixes what "newest" is across scans a slice at a
   * time (people stored meanwhile are not seen).
   */
  scan(match: LibraryMatch<ContactFacet>, from: number, limit: number, budget = Infinity, size = this.slots) {
    const found: number[] = []
    let position = from
    const end = Math.min(size, from + budget)
    // A search word starts a word where ' ' + it occurs: made once, not once a person (a scan of a
    // hundred thousand people made as many strings, and a collection of them cost more than the scan).
    const needles = match.words.map((word) => ` ${word}`)
    const needed = neededStarts(needles)
    const domain = domainNeedle(match)
    if (domain) {
      const next = this.walkDomain(domain, from, end, size, (slot, block, at) => {
        if (!holdsFacets(block, at, match.facets) || !holdsAll(block.words[at]!, needles)) return true
        found.push(slot)
        return found.length < limit
      })
      return { found, next }
    }
    // A scan for every match makes the word starts of the blocks it reads; a first page, a few
    // milliseconds at most, uses those there are.
    const makeStarts = limit === Infinity && needles.length > 0
    while (position < end && found.length < limit) {
      const slot = size - 1 - position
      const block = this.blocks[contactBlockOf(slot)]
      const first = contactBlockOf(slot) * contactBlockSize
      // A block not read yet (an index read from the top down): the scan ends where it begins.
      if (!block) break
      const allowed = this.allowedCodes(block, match)
      if (!allowed) {
        // Nobody in this block can match: on to the next.
        position += Math.min(slot - first + 1, end - position)
        continue
      }
      const starts = this.startsOf(contactBlockOf(slot), makeStarts)
      // Down the block, newest first, to its first slot or the end of the budget.
      for (let at = slot; at >= first && position < end && found.length < limit; at--, position++) {
        const inBlock = at - first
        if (block.ids[inBlock] === '') continue
        if (!allowedAt(allowed, inBlock)) continue
        if (starts && !mayStart(starts, inBlock * startsPerPerson, needed)) continue
        if (holdsAll(block.words[inBlock]!, needles)) found.push(at)
      }
    }
    return { found, next: position }
  }

  /**
   * Adds to `into` how many people of a search have each value of each facet, newest first from the
   * `from`-th person, `budget` of them, as `scan` reads them. A facet is counted as if it were not
   * searched (the words and the other facets held, its own values left free): the count beside a
   * value is what picking it as well would add, as facet filters count. Returns where to go on from.
   */
  countFacets(
    match: LibraryMatch<ContactFacet>,
    into: Record<ContactFacet, Map<string, number>>,
    from: number,
    budget = Infinity,
    size = this.slots,
  ): number {
    const needles = match.words.map((word) => ` ${word}`)
    const needed = neededStarts(needles)
    const domain = domainNeedle(match)
    const searched = match.facets.map(([facet, values]) => ({
      facet,
      at: contactFacets.indexOf(facet),
      values: new Set(values),
    }))
    if (domain)
      return this.walkDomain(domain, from, Math.min(size, from + budget), size, (_slot, block, at) => {
        if (!holdsAll(block.words[at]!, needles)) return true
        let missed = -1
        let misses = 0
        for (const { facet, at: f, values } of searched) {
          const column = block.facets[facet]
          if (values.has(column.values[column.codes[at]!]!)) continue
          missed = f
          if (++misses > 1) break
        }
        if (misses > 1) return true
        contactFacets.forEach((facet, f) => {
          if (misses === 1 && f !== missed) return
          const column = block.facets[facet]
          const value = column.values[column.codes[at]!]!
          into[facet].set(value, (into[facet].get(value) ?? 0) + 1)
        })
        return true
      })
    // Made once a call, not once a block: by code, each facet's count in the block and, for each
    // facet searched, whether the code is wanted (a block holds at most 100 codes of a facet).
    const tallies = contactFacets.map(() => new Uint32Array(contactBlockSize))
    const wanted = searched.map(() => new Uint8Array(contactBlockSize))
    const columns: (Uint8Array | Uint16Array)[] = []
    const checked: (Uint8Array | Uint16Array)[] = []
    const end = Math.max(0, size - Math.min(size, from + budget))
    let slot = size - 1 - from
    while (slot >= end) {
      const base = contactBlockOf(slot) * contactBlockSize
      const block = this.blocks[contactBlockOf(slot)]
      const first = Math.max(end, base)
      if (!block) return size - 1 - slot
      const starts = this.startsOf(contactBlockOf(slot), needles.length > 0)
      contactFacets.forEach((facet, f) => (columns[f] = block.facets[facet].codes))
      searched.forEach(({ facet, values }, s) => {
        const column = block.facets[facet]
        checked[s] = column.codes
        column.values.forEach((value, code) => (wanted[s]![code] = values.has(value) ? 1 : 0))
      })
      for (let at = slot; at >= first; at--) {
        const inBlock = at - base
        // The facets first: a person missing two is counted nowhere, and their words need no look.
        let missed = -1
        let misses = 0
        for (let s = 0; s < searched.length; s++) {
          if (wanted[s]![checked[s]![inBlock]!] === 1) continue
          missed = searched[s]!.at
          if (++misses > 1) break
        }
        if (misses > 1 || block.ids[inBlock] === '') continue
        if (starts && !mayStart(starts, inBlock * startsPerPerson, needed)) continue
        if (needles.length > 0 && !holdsAll(block.words[inBlock]!, needles)) continue
        if (misses === 0) for (let f = 0; f < columns.length; f++) tallies[f]![columns[f]![inBlock]!]! += 1
        else tallies[missed]![columns[missed]![inBlock]!]! += 1
      }
      contactFacets.forEach((facet, f) => {
        const values = block.facets[facet].values
        const counts = into[facet]
        const tally = tallies[f]!
        for (let code = 0; code < values.length; code++) {
          if (tally[code] === 0) continue
          counts.set(values[code]!, (counts.get(values[code]!) ?? 0) + tally[code]!)
          tally[code] = 0
        }
      })
      slot = first - 1
    }
    return size - 1 - slot
  }

  /**
   * The slots, in order, of the people in the blocks held whose domain hash is `hash`: a pass over
   * every block's domain column, made again only once a block has been taken in since. A company's
   * page then looks at its people alone, not at everyone (`npm run bench -- --only company`).
   */
  private slotsOfDomain(hash: number): Int32Array {
    const known = this.domains.get(hash)
    if (known && known.taken === this.taken) return known.slots
    const slots: number[] = []
    this.blocks.forEach((block, number) => {
      const column = block.domains
      if (!column.includes(hash)) return
      for (let at = 0; at < column.length; at++)
        if (column[at] === hash) slots.push(number * contactBlockSize + at)
    })
    const made = Int32Array.from(slots)
    // A few companies' pages at a time; a tenth is not kept past its opening.
    if (this.domains.size >= 8) this.domains.clear()
    this.domains.set(hash, { taken: this.taken, slots: made })
    return made
  }

  /**
   * The people at a domain from the `from`-th person newest first to the `end`-th, as a scan meets
   * them, through the domain's slots: `each` is given each one until it returns false. Returns
   * where to go on from, as a scan does: short of `end` where a block is not read yet, or past the
   * person `each` stopped at.
   */
  private walkDomain(
    domain: DomainNeedle,
    from: number,
    end: number,
    size: number,
    each: (slot: number, block: ContactKeyBlock, at: number) => boolean,
  ): number {
    const top = size - 1 - from
    let floor = size - end
    // A block not read yet (an index read from the top down) ends the walk, as it ends a scan.
    for (let number = contactBlockOf(top); top >= floor && number >= contactBlockOf(floor); number--)
      if (!this.blocks[number]) {
        floor = Math.max(floor, (number + 1) * contactBlockSize)
        break
      }
    const slots = this.slotsOfDomain(domain.hash)
    // The last slot at or below the top, by halves.
    let low = 0
    let high = slots.length
    while (low < high) {
      const middle = (low + high) >> 1
      if (slots[middle]! <= top) low = middle + 1
      else high = middle
    }
    for (let i = low - 1; i >= 0 && slots[i]! >= floor; i--) {
      const slot = slots[i]!
      const block = this.blocks[contactBlockOf(slot)]!
      const at = slot % contactBlockSize
      if (block.ids[at] === '' || !atDomain(block, at, domain)) continue
      if (!each(slot, block, at)) return size - slot
    }
    return Math.max(from, size - floor)
  }

  /** A block's word starts: made now if `make` and not made yet. */
  private startsOf(block: number, make: boolean): Int32Array | undefined {
    const made = this.starts[block]
    const keys = this.blocks[block]
    if (made || !make || !keys) return made
    const starts = new Int32Array(keys.words.length * startsPerPerson)
    keys.words.forEach((words, at) => startBits(words, starts, at * startsPerPerson))
    this.starts[block] = starts
    return starts
  }

  /** Per facet searched, the block's codes and which of them are wanted (null: none is). */
  private allowedCodes(block: ContactKeyBlock, match: LibraryMatch<ContactFacet>) {
    const allowed: AllowedCodes = []
    for (const [facet, values] of match.facets) {
      const column = block.facets[facet]
      const ok = new Uint8Array(column.values.length)
      column.values.forEach((value, code) => (ok[code] = values.includes(value) ? 1 : 0))
      if (!ok.includes(1)) return null
      allowed.push([column.codes, ok])
    }
    return allowed
  }

  private hashes(keys: ContactKeyBlock, each: (hash: number, slot: number) => void): void {
    const base = keys.block * contactBlockSize
    for (let at = 0; at < keys.hashes.length; at++) {
      const hash = keys.hashes[at]!
      if (hash !== 0) each(hash, base + Math.floor(at / keysPerContact))
    }
  }
}
