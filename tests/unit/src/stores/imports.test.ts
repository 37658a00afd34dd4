import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { watch } from 'vue'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createList, saveMappingFor } from '@/db/lists'
import type { ListRecord } from '@/db/records'
import { db } from '@/db/schema'
import { useImportsStore } from '@/stores/imports'
import { notify } from '@/ui/notify'
import type { ToWorker } from '@/workers/import-protocol'

const file = (text: string, name = 'people.csv') => new File([text], name)

beforeEach(() => {
  setActivePinia(createPinia())
})

describe('the imports store', () => {
  it('opens a file on its preview with suggested columns and a name from the file', async () => {
    const store = useImportsStore()
    await store.open(file('Prénom;Nom;Domaine\nRené;Müller;acme.de\n', 'salon-2024.csv'))
    expect(store.step).toBe('preview')
    expect(store.name).toBe('salon-2024')
    expect(store.preview).toMatchObject({
      delimiter: ';',
      hasHeader: true,
      columns: ['Prénom', 'Nom', 'Domaine'],
    })
    expect(store.mapping).toEqual({ first_name: 0, last_name: 1, company_domain: 2 })
  })

  it('re-reads the preview on an override and suggests again when the columns change', async () => {
    const store = useImportsStore()
    await store.open(file('First,Last,Website\nJane,Doe,acme.com\n'))
    await store.setOverrides({ delimiter: ';' })
    expect(store.preview?.columns).toEqual(['First,Last,Website'])
    expect(store.mapping).toEqual({})
    await store.setOverrides({ delimiter: ',' })
    expect(store.mapping).toEqual({ first_name: 0, last_name: 1, website: 2 })
    store.setField('website', null)
    store.setField('company_domain', 2)
    expect(store.mapping).toEqual({ first_name: 0, last_name: 1, company_domain: 2 })
  })

  it('offers the mapping saved for the same headers', async () => {
    await saveMappingFor(['Col A', 'Col B', 'Col C'], { full_name: 1, email: 2 })
    const store = useImportsStore()
    await store.open(file('col a,COL B,Col C\n1,Jane Doe,jane@acme.com\n'))
    expect(store.mappingRemembered).toBe(true)
    expect(store.mapping).toEqual({ full_name: 1, email: 2 })
  })

  it('shows a preview, and so its Next, only with the saved mapping already in place', async () => {
    await saveMappingFor(['Col A', 'Col B', 'Col C'], { full_name: 1, email: 2 })
    const store = useImportsStore()
    const seen: Array<{ remembered: boolean; mapping: object }> = []
    const stop = watch(
      () => store.preview,
      (preview) => {
        if (preview) seen.push({ remembered: store.mappingRemembered, mapping: { ...store.mapping } })
      },
      { flush: 'sync' },
    )
    await store.open(file('col a,COL B,Col C\n1,Jane Doe,jane@acme.com\n'))
    stop()
    expect(seen).toEqual([{ remembered: true, mapping: { full_name: 1, email: 2 } }])
  })

  it('leaves nothing of a preview whose saved mapping was still being read when the dialog closed', async () => {
    await saveMappingFor(['Col A', 'Col B', 'Col C'], { full_name: 1, email: 2 })
    const store = useImportsStore()
    const read = db.mappings.get.bind(db.mappings)
    let looked = false
    // The user closes the dialog while the saved mapping of the file's columns is looked up.
    const lookup = vi.spyOn(db.mappings, 'get').mockImplementation(((key: string) => {
      looked = true
      void store.discard()
      return read(key)
    }) as typeof db.mappings.get)
    try {
      await store.open(file('col a,COL B,Col C\n1,Jane Doe,jane@acme.com\n'))
    } finally {
      lookup.mockRestore()
    }
    expect(looked).toBe(true)
    expect(store.preview).toBeNull()
    expect(store.mapping).toEqual({})
    expect(store.mappingRemembered).toBe(false)
  })

  it('holds "Next" while a changed option is read again, until its columns have their mapping', async () => {
    const store = useImportsStore()
    await store.open(file('First,Last,Website\nJane,Doe,acme.com\n'))
    expect(store.previewing).toBe(false)
    const read = db.mappings.get.bind(db.mappings)
    const during: boolean[] = []
    const lookup = vi.spyOn(db.mappings, 'get').mockImplementation(((key: string) => {
      during.push(store.previewing)
      return read(key)
    }) as typeof db.mappings.get)
    try {
      await store.setOverrides({ delimiter: ';' })
    } finally {
      lookup.mockRestore()
    }
    expect(during).toEqual([true])
    expect(store.previewing).toBe(false)
    expect(store.preview?.columns).toEqual(['First,Last,Website'])
  })

  it('explains a file it cannot read and forgets it on discard', async () => {
    const store = useImportsStore()
    await store.open(file(''))
    expect(store.problem).toMatchObject({ code: 'empty', message: 'The file is empty.' })
    expect(store.preview).toBeNull()
    await store.discard()
    expect(store.file).toBeNull()
    expect(store.problem).toBeNull()
  })

  it('spawns the import workers as the preview shows, and ends them when the dialog is left', async () => {
    const made: Array<{ terminated: boolean; received: ToWorker[] }> = []
    vi.stubGlobal(
      'Worker',
      class {
        terminated = false
        received: ToWorker[] = []
        constructor() {
          made.push(this)
        }
        postMessage(message: ToWorker) {
          this.received.push(message)
        }
        terminate() {
          this.terminated = true
        }
      },
    )
    // Four cores: an import runs on two workers (`importWorkerCount`).
    vi.spyOn(navigator, 'hardwareConcurrency', 'get').mockReturnValue(4)
    try {
      const store = useImportsStore()
      const dropped = file('First,Last\nJane,Doe\n')
      await store.open(dropped)
      expect(made).toHaveLength(2)
      // Each rehearses the file as the preview reads it, with the mapping it suggests.
      for (const worker of made) {
        expect(worker.received).toEqual([
          {
            type: 'rehearse',
            file: dropped,
            options: { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 2 },
            mapping: { first_name: 0, last_name: 1 },
          },
        ])
      }
      await store.discard()
      expect(made.map((worker) => worker.terminated)).toEqual([true, true])
    } finally {
      vi.unstubAllGlobals()
      vi.restoreAllMocks()
    }
  })
})

describe('the imports store, adding a file to a list', () => {
  async function fair(state: ListRecord['state'] = 'ready'): Promise<ListRecord> {
    const list = await createList({
      name: 'Fair',
      source: { fileName: 'fair.csv', size: 1, encoding: 'utf-8', delimiter: ',', hasHeader: true },
      columns: ['First', 'Last', 'Domain'],
      mapping: { first_name: 0, last_name: 1, company_domain: 2 },
    })
    await db.lists.update(list.id, { state })
    return { ...list, state }
  }

  it('matches the file’s columns to the list’s by name, and lets the user send one elsewhere', async () => {
    const list = await fair()
    const store = useImportsStore()
    store.requestAppend(list, file('domain,FIRST,Notes\nacme.com,Jane,hi\n'))
    await store.open(store.requested!)
    expect(store.appendInto?.id).toBe(list.id)
    expect(store.name).toBe('Fair')
    expect(store.columnMatch).toEqual({
      targets: [2, 0, 3],
      columns: ['First', 'Last', 'Domain', 'Notes'],
      matched: 2,
    })
    expect(store.appendRefusal).toBeNull()
    store.chooseColumn(2, 1)
    expect(store.columnMatch?.targets).toEqual([2, 0, 1])
    expect(store.columnMatch?.columns).toEqual(['First', 'Last', 'Domain'])
  })

  it('refuses a file none of whose columns is the list’s, and changes nothing', async () => {
    const list = await fair()
    const store = useImportsStore()
    store.requestAppend(list, file('a,b\n1,2\n'))
    await store.open(store.requested!)
    expect(store.appendRefusal).toMatchObject({ code: 'no_match' })
    await store.startImport()
    expect(store.problem).toMatchObject({ code: 'no_match' })
    expect((await db.lists.get(list.id))!.appending).toBeUndefined()
  })

  it('refuses at once while a run of the list goes on', async () => {
    const list = await fair('running')
    const store = useImportsStore()
    // What is said, not the notice: its code loads apart and would outlive the file.
    const said = vi.spyOn(notify, 'error').mockImplementation(() => undefined)
    store.requestAppend(list, file('First\nJane\n'))
    expect(store.requested).toBeNull()
    expect(said).toHaveBeenCalledWith(
      'A run of this list is going on: rows can be added once it has finished.',
    )
    said.mockRestore()
  })
})
