import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { beginAppend } from '@/db/list-append'
import { storedRowCount } from '@/db/blocks'
import { appendRows } from '@/db/lists'
import { listFromRows } from '@/db/list-ops'
import { db } from '@/db/schema'
import { useListsStore } from '@/stores/lists'
import { notify } from '@/ui/notify'
import { seed } from '../support/list-fixtures'

beforeEach(async () => {
  setActivePinia(createPinia())
  await Promise.all(db.tables.map((table) => table.clear()))
  // What is said, not the notice: its code loads apart and would outlive the file.
  vi.spyOn(notify, 'warning').mockImplementation(() => undefined)
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe('the lists store, as the app starts', () => {
  it('takes back an append and deletes a new list of rows that a closed window cut off', async () => {
    await seed(db, 'L', 30)
    await db.lists.update('L', { state: 'ready' })
    // A window began adding a file's rows, and stored some, then closed.
    const begun = await beginAppend('L', 'fair.csv', db)
    if (!begun.ok) throw new Error(begun.message)
    await appendRows('L', 30, [['Jane', 'Doe', 'acme.com']], undefined, undefined, db)
    // Another was making a list of L's rows, and had written a block of them.
    const made = await listFromRows('L', [1, 2, 3], 'Three', {}, db)
    if (!made.ok) throw new Error(made.message)
    await db.lists.update(made.value.id, { state: 'importing', makingFrom: 'L' })

    await useListsStore().takeBackCutOff()

    const list = (await db.lists.get('L'))!
    expect(list.rowCount).toBe(30)
    expect(list.appending).toBeUndefined()
    expect(await storedRowCount(db, 'L')).toBe(30)
    expect(await db.lists.get(made.value.id)).toBeUndefined()
    expect(await storedRowCount(db, made.value.id)).toBe(0)
    expect(notify.warning).toHaveBeenCalledWith(
      'Adding the rows of “fair.csv” to “List L” was cut off; the list is as it was before. Add the file again to add them.',
    )
    expect(notify.warning).toHaveBeenCalledWith(
      'Making the list “Three” of another list’s rows was cut off; it was not kept. Make it again from the list it came from.',
    )
  })
})
