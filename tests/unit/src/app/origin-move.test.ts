// The app window's part of the move, with main played by a fake host over a real source (another
// fake-indexeddb factory, as another origin): what the user sees, and what main is told.
import { IDBFactory } from 'fake-indexeddb'
import 'fake-indexeddb/auto'
import { nextTick } from 'vue'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { bringOldData, moveMarkKey } from '@/app/origin-move'
import { createSource } from '@/origin-move/source'
import type { OriginMoveHost, StoreCounts } from '@shared/origin-move'

async function oldOrigin(records: number): Promise<IDBFactory> {
  const idb = new IDBFactory()
  const open = idb.open('leadkeeper', 80)
  open.onupgradeneeded = () => open.result.createObjectStore('lists', { keyPath: 'id' })
  const db = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)))
  const tx = db.transaction('lists', 'readwrite')
  for (let i = 0; i < records; i += 1) tx.objectStore('lists').put({ id: `list-${i}` })
  await new Promise((resolve) => (tx.oncomplete = resolve))
  db.close()
  return idb
}

function host(idb: IDBFactory, overrides: Partial<OriginMoveHost> = {}) {
  const source = createSource(idb, null)
  const finished: StoreCounts[] = []
  const failed: string[] = []
  const fake: OriginMoveHost = {
    start: async () => ({ move: true }),
    read: (request) => source.answer(request, { records: 10, bytes: 1 << 20 }),
    finish: async (counts) => {
      finished.push(counts)
      return { ok: true }
    },
    fail: async (message) => void failed.push(message),
    ...overrides,
  }
  return { fake, finished, failed }
}

afterEach(async () => {
  document.body.innerHTML = ''
  localStorage.clear()
  await new Promise<void>((resolve) => {
    const request = indexedDB.deleteDatabase('leadkeeper')
    request.onsuccess = () => resolve()
  })
})

describe('bringOldData', () => {
  it('does nothing in a browser, where there is no shell, or when main says nothing is to move', async () => {
    const root = document.createElement('div')
    await bringOldData(undefined, root)
    const { fake } = host(await oldOrigin(3), { start: async () => ({ move: false }) })
    const read = vi.spyOn(fake, 'read')
    await bringOldData(fake, root)
    expect(read).not.toHaveBeenCalled()
    expect(root.innerHTML).toBe('')
  })

  it('copies the data, tells main the counts, and leaves the page to the app', async () => {
    const root = document.body.appendChild(document.createElement('div'))
    const { fake, finished } = host(await oldOrigin(35))
    const seen: string[] = []
    const observer = new MutationObserver(() => seen.push(root.textContent ?? ''))
    observer.observe(root, { subtree: true, childList: true, characterData: true })
    await bringOldData(fake, root)
    observer.disconnect()
    expect(finished).toEqual([{ leadkeeper: { lists: 35 } }])
    expect(seen.some((text) => text.includes('Bringing your lists and library over'))).toBe(true)
    expect(seen.some((text) => /\d+ of 35 stored records copied/.test(text))).toBe(true)
    expect(root.innerHTML).toBe('')
  })

  it('on a failure says what happened, tells main, and never opens the app', async () => {
    const root = document.body.appendChild(document.createElement('div'))
    const { fake, failed } = host(await oldOrigin(35), {
      finish: async () => ({ ok: false, message: 'The copy of your data is not complete.' }),
    })
    let opened = false
    void bringOldData(fake, root).then(() => (opened = true))
    await vi.waitFor(() => expect(failed).toHaveLength(1))
    await nextTick()
    expect(opened).toBe(false)
    expect(failed[0]).toBe('The copy of your data is not complete.')
    expect(root.textContent).toContain('Your lists could not be brought over yet')
    expect(root.textContent).toContain('The copy of your data is not complete.')
    expect(root.textContent).toContain('Nothing of your data was changed or deleted')
    expect(root.querySelector('[data-test="origin-move-retry"]')).not.toBeNull()
  })

  it("marks the move here: done once main has checked it, and never run again over this origin's data", async () => {
    const root = document.body.appendChild(document.createElement('div'))
    const first = host(await oldOrigin(5))
    await bringOldData(first.fake, root)
    expect(localStorage.getItem(moveMarkKey)).toBe('done')
    // Main's own mark lost (its settings file reset): main asks to move again; this origin says no.
    const again = host(await oldOrigin(2))
    const start = vi.spyOn(again.fake, 'start')
    await bringOldData(again.fake, root)
    expect(start).not.toHaveBeenCalled()
    expect(again.finished).toEqual([])
  })

  it('never replaces a database this version wrote when no move was begun here', async () => {
    const root = document.body.appendChild(document.createElement('div'))
    const open = indexedDB.open('leadkeeper', 80)
    open.onupgradeneeded = () => open.result.createObjectStore('lists', { keyPath: 'id' })
    const own = await new Promise<IDBDatabase>((resolve) => (open.onsuccess = () => resolve(open.result)))
    const tx = own.transaction('lists', 'readwrite')
    tx.objectStore('lists').put({ id: 'written-here' })
    await new Promise((resolve) => (tx.oncomplete = resolve))
    own.close()
    const { fake, finished } = host(await oldOrigin(3))
    const start = vi.spyOn(fake, 'start')
    await bringOldData(fake, root)
    expect(start).not.toHaveBeenCalled()
    expect(finished).toEqual([])
    expect(localStorage.getItem(moveMarkKey)).toBe('done')
    const reopen = indexedDB.open('leadkeeper')
    const kept = await new Promise<IDBDatabase>(
      (resolve) => (reopen.onsuccess = () => resolve(reopen.result)),
    )
    const read = kept.transaction('lists').objectStore('lists').getAll()
    await new Promise((resolve) => (read.onsuccess = resolve))
    kept.close()
    expect(read.result).toEqual([{ id: 'written-here' }])
  })

  it("a move cut short is begun again: the half copy is this move's own", async () => {
    const root = document.body.appendChild(document.createElement('div'))
    const cut = host(await oldOrigin(35), { finish: () => new Promise(() => undefined) })
    void bringOldData(cut.fake, root)
    await vi.waitFor(() => expect(localStorage.getItem(moveMarkKey)).toBe('copying'))
    document.body.innerHTML = ''
    const next = host(await oldOrigin(35))
    await bringOldData(next.fake, document.body.appendChild(document.createElement('div')))
    expect(next.finished).toEqual([{ leadkeeper: { lists: 35 } }])
    expect(localStorage.getItem(moveMarkKey)).toBe('done')
  })

  it('shows the failure when main cannot even start the move', async () => {
    const root = document.body.appendChild(document.createElement('div'))
    const { fake, failed } = host(await oldOrigin(1), {
      start: () => Promise.reject(new Error('The hidden window did not load.')),
    })
    void bringOldData(fake, root)
    await vi.waitFor(() => expect(failed).toEqual(['The hidden window did not load.']))
    await nextTick()
    expect(root.textContent).toContain('The hidden window did not load.')
  })
})
