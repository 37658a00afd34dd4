import { dataKinds, type Answers } from '@domain/kinds'
import { codedColumn } from './block-shape'
import { contactAnswers, contactFacets, type ContactFacet } from './library-shape'
import type { ContactKeyBlock, ContactRecord } from './schema'
import { SlotTable } from './slot-table'
import { fold, type LibraryMatch } from './words'

/**
 * What finds the library's people without reading them: each block's ids, identities, search words,
 * facets and key hashes, held in memory and kept up to date by block revision. One IndexedDB record
 * per person costs ~70 µs to write whatever it holds, so people are stored in blocks
 * (`contactBlockSize` to a record) and this index, rebuilt from small key blocks, does what
 * IndexedDB's per-record indexes did: find a person by any key, search by words and facets.
 */

/**
 * People to a block. A block of the bench's people is about 100 kB, past the 64 kB from which
 * Chromium keeps a value in a file of its own beside its database rather than in the database's log:
 * measured writing 200,000 such people, 27,000–33,000 a second at 50 a block (about 50 kB, in the
 * log), 127,000–146,000 at 70 and 184,000–241,000 at 100; a hundred blocks read at random (a search's
 * first page may hold a hundred people from a hundred blocks) 78–154 ms at 50 a block, 33–61 at 70,
 * 37–109 at 100. The library's writes through the app went from 12,000–14,000 people a second to
 * 21,000–30,000. Versions 6 to 9 of the database kept 50 a block (`legacyContactBlockSize`).
 */
export const contactBlockSize = 100

/** People to a block in versions 6 to 9 of the database; version 10's upgrade regroups them. */
export const legacyContactBlockSize = 50

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

/** FNV-1a over the UTF-16 units, to 30 bits so the hash is a small integer; never 0. */
export function keyHash(key: string): number {
  let hash = 0x811c9dc5
  for (let at = 0; at < key.length; at++) {
    hash ^= key.charCodeAt(at)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 2 || 1
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
    facets,
  }
}

type AllowedCodes = [Uint8Array | Uint16Array, Uint8Array][]

/** Whether the person at a block's place has a wanted value of every facet searched. */
function allowedAt(allowed: AllowedCodes, at: number): boolean {
  for (const [codes, ok] of allowed) if (ok[codes[at]!] !== 1) return false
  return true
}

function holdsAll(words: string, needles: readonly string[]): boolean {
  for (const needle of needles) if (!words.includes(needle)) return false
  return true
}

/** The library's people in memory, by slot: slot s is the (s+1)-th person first stored. */
export class ContactIndex {
  /** Each block's revision as loaded; a stored revision that differs means reload that block. */
  readonly revs: number[] = []

  /** The stored library this index was built from (`ContactRevisions.epoch`). */
  constructor(readonly epoch: string) {}
  private readonly blocks: ContactKeyBlock[] = []
  /** Key hash → slots. */
  private readonly byHash = new SlotTable()
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
    this.revs[keys.block] = rev
    this.hashes(keys, (hash, slot) => this.byHash.add(hash, slot))
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
      // Down the block, newest first, to its first slot or the end of the budget.
      for (let at = slot; at >= first && position < end && found.length < limit; at--, position++) {
        const inBlock = at - first
        if (block.ids[inBlock] === '') continue
        if (!allowedAt(allowed, inBlock)) continue
        if (holdsAll(block.words[inBlock]!, needles)) found.push(at)
      }
    }
    return { found, next: position }
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
