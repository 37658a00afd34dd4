// The move's source, sink and mover over two separate IndexedDB factories (fake-indexeddb), as two
// origins. Real Chromium runs the same code in tests/e2e/origin-move.spec.ts.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb'
import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { moveOrigin, MoveError, type ReadSource } from '@/origin-move/mover'
import { createSource } from '@/origin-move/source'
import type { SourceRequest } from '@shared/origin-move'

const done = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })

/** A database as an old version left it: compound, out-of-line and generated keys, every kind of index. */
async function seed(idb: IDBFactory): Promise<void> {
  const open = idb.open('leadkeeper', 20)
  open.onupgradeneeded = () => {
    const db = open.result
    const rows = db.createObjectStore('rows', { keyPath: ['listId', 'index'] })
    rows.createIndex('[listId+status]', ['listId', 'status'])
    const people = db.createObjectStore('people', { keyPath: 'id' })
    people.createIndex('email', 'email', { unique: true })
    people.createIndex('words', 'words', { multiEntry: true })
    db.createObjectStore('notes', { autoIncrement: true })
    db.createObjectStore('loose')
    db.createObjectStore('empty', { keyPath: 'id' })
  }
  const db = await done(open)
  const tx = db.transaction(['rows', 'people', 'notes', 'loose'], 'readwrite')
  for (let index = 0; index < 250; index += 1) {
    tx.objectStore('rows').put({ listId: 'a', index, status: index % 2 ? 'found' : 'pending' })
  }
  for (let i = 0; i < 40; i += 1) {
    tx.objectStore('people').put({
      id: `c:${i}`,
      email: `p${i}@x.com`,
      words: [`w${i}`, 'all'],
      codes: new Uint16Array([i, i + 1]),
      answers: new Float64Array([Number.NaN, i]),
      at: new Date(1_700_000_000_000 + i),
    })
  }
  for (let i = 0; i < 30; i += 1) tx.objectStore('notes').add({ text: `note ${i}` })
  tx.objectStore('loose').put({ v: 1 }, ['k', 1])
  tx.objectStore('loose').put({ v: 2 }, new Date(5))
  tx.objectStore('loose').put({ v: 3 }, 7)
  await new Promise((resolve) => (tx.oncomplete = resolve))
  db.close()
}

async function readAll(idb: IDBFactory, store: string) {
  const db = await done(idb.open('leadkeeper'))
  const tx = db.transaction(store)
  const [keys, values] = await Promise.all([
    done(tx.objectStore(store).getAllKeys()),
    done(tx.objectStore(store).getAll()),
  ])
  db.close()
  return { keys, values }
}

function fakeStorage(entries: Record<string, string> = {}): Storage {
  const map = new Map(Object.entries(entries))
  return {
    get length() {
      return map.size
    },
    key: (index) => [...map.keys()][index] ?? null,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
    clear: () => map.clear(),
  }
}

function relay(source: ReturnType<typeof createSource>, cut = Infinity) {
  let requests = 0
  const read: ReadSource = (request: SourceRequest) => {
    requests += 1
    if (requests > cut) return Promise.resolve({ ok: false, message: 'closed' })
    // Structured clone, as IPC carries it.
    return source.answer(request, { records: 16, bytes: 1 << 20 }).then((answer) => structuredClone(answer))
  }
  return read
}

describe('moving an origin', () => {
  it('recreates every database at its version with its stores, indexes and records, and the app storage', async () => {
    const from = new IDBFactory()
    const to = new IDBFactory()
    await seed(from)
    const source = createSource(
      from,
      fakeStorage({ 'leadkeeper.planLimits': '{"perMinute":60}', 'other.key': 'x' }),
    )
    const storage = fakeStorage()
    const progress: number[] = []
    const counts = await moveOrigin(relay(source), { idb: to, storage }, (step) => progress.push(step.done))

    expect(counts).toEqual({ leadkeeper: { rows: 250, people: 40, notes: 30, loose: 3, empty: 0 } })
    expect(progress.at(-1)).toBe(323)
    expect(progress.length).toBeGreaterThan(20)
    expect(storage.getItem('leadkeeper.planLimits')).toBe('{"perMinute":60}')
    expect(storage.getItem('other.key')).toBeNull()

    const db = await done(to.open('leadkeeper'))
    expect(db.version).toBe(20)
    const tx = db.transaction(['rows', 'people', 'notes', 'loose'])
    expect(tx.objectStore('rows').keyPath).toEqual(['listId', 'index'])
    expect(tx.objectStore('rows').index('[listId+status]').keyPath).toEqual(['listId', 'status'])
    const email = tx.objectStore('people').index('email')
    expect([email.unique, email.multiEntry]).toEqual([true, false])
    expect(tx.objectStore('people').index('words').multiEntry).toBe(true)
    expect(tx.objectStore('notes').autoIncrement).toBe(true)
    expect(tx.objectStore('loose').keyPath).toBeNull()
    expect(await done(tx.objectStore('people').index('words').count(IDBKeyRange.only('all')))).toBe(40)
    db.close()

    for (const store of ['rows', 'people', 'notes', 'loose']) {
      expect(await readAll(to, store), store).toEqual(await readAll(from, store))
    }
    const person = (await readAll(to, 'people')).values[3] as { codes: Uint16Array; answers: Float64Array }
    expect(person.codes).toBeInstanceOf(Uint16Array)
    expect(Number.isNaN(person.answers[0])).toBe(true)
  })

  it('starts again from nothing after a move cut off half-way, and writes nothing twice', async () => {
    const from = new IDBFactory()
    const to = new IDBFactory()
    await seed(from)
    const source = createSource(from, fakeStorage())
    // Stores go in name order (empty, loose, notes, people, rows): the cut falls within rows.
    await expect(moveOrigin(relay(source, 11), { idb: to, storage: fakeStorage() })).rejects.toThrow(
      MoveError,
    )
    const half = await readAll(to, 'rows')
    expect(half.keys.length).toBeGreaterThan(0)
    expect(half.keys.length).toBeLessThan(250)

    const counts = await moveOrigin(relay(source), { idb: to, storage: fakeStorage() })
    expect(counts['leadkeeper']).toMatchObject({ rows: 250, notes: 30 })
    expect(await readAll(to, 'notes')).toEqual(await readAll(from, 'notes'))
    expect(await readAll(to, 'rows')).toEqual(await readAll(from, 'rows'))
  })

  it('moves nothing from an origin without databases, and never changes the source', async () => {
    const from = new IDBFactory()
    const to = new IDBFactory()
    expect(await moveOrigin(relay(createSource(from, null)), { idb: to, storage: null })).toEqual({})
    expect(await from.databases()).toEqual([])

    await seed(from)
    const before = await readAll(from, 'people')
    await moveOrigin(relay(createSource(from, null)), { idb: to, storage: null })
    expect(await readAll(from, 'people')).toEqual(before)
  })

  it('stops at a record whose key is not an IndexedDB key', async () => {
    const to = new IDBFactory()
    const read: ReadSource = async (request) =>
      request.kind === 'survey'
        ? {
            ok: true,
            survey: {
              databases: [
                {
                  name: 'x',
                  version: 1,
                  stores: [{ name: 's', keyPath: null, autoIncrement: false, indexes: [], count: 1 }],
                },
              ],
              localStorage: [],
            },
          }
        : { ok: true, page: { records: [{ key: { not: 'a key' }, value: 1 }], last: true } }
    await expect(moveOrigin(read, { idb: to, storage: null })).rejects.toThrow('no valid key')
  })
})
