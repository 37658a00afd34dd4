import 'fake-indexeddb/auto'
import { createPinia, setActivePinia } from 'pinia'
import { beforeEach, describe, expect, it } from 'vitest'
import { saveMappingFor } from '@/db/lists'
import { useImportsStore } from '@/stores/imports'

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

  it('explains a file it cannot read and forgets it on discard', async () => {
    const store = useImportsStore()
    await store.open(file(''))
    expect(store.problem).toMatchObject({ code: 'empty', message: 'The file is empty.' })
    expect(store.preview).toBeNull()
    await store.discard()
    expect(store.file).toBeNull()
    expect(store.problem).toBeNull()
  })
})
