import { describe, expect, it } from 'vitest'
import { ImportError } from '@domain/read/errors'
import { rehearsalBytes, rehearseImport, storeRows } from '@/db/import-rows'

async function* bytes(text: string) {
  yield new TextEncoder().encode(text)
}

const options = { encoding: 'utf-8', delimiter: ',', hasHeader: true, width: 2 }
const rows = 'first,last\n' + Array.from({ length: 25 }, (_, i) => `F${i},L${i}`).join('\n')

describe('storeRows', () => {
  it('writes every batch in order, one write in flight at a time', async () => {
    const written: number[] = []
    let inFlight = 0
    let most = 0
    await storeRows(
      bytes(rows),
      options,
      { listId: 'l', mapping: {} },
      {
        knownIdentities: async () => new Set(),
        appendRows: async (_, startIndex) => {
          most = Math.max(most, ++inFlight)
          await new Promise((resolve) => setTimeout(resolve, 5))
          written.push(startIndex)
          inFlight--
        },
      },
      { batchSize: 10 },
    )
    expect(written).toEqual([0, 10, 20])
    expect(most).toBe(1)
  })

  it('turns a full disk into a clear message', async () => {
    const failure = storeRows(
      bytes(rows),
      options,
      { listId: 'l', mapping: {} },
      {
        knownIdentities: async () => new Set(),
        appendRows: async () => {
          throw new DOMException('quota', 'QuotaExceededError')
        },
      },
      { batchSize: 10 },
    )
    await expect(failure).rejects.toBeInstanceOf(ImportError)
    await expect(failure).rejects.toMatchObject({
      code: 'storage',
      message: expect.stringContaining('disk space'),
    })
  })
})

describe('rehearseImport', () => {
  const mapping = { first_name: 0, last_name: 1, company_domain: 2 }
  const wide = { ...options, width: 3 }
  // A file past the rehearsal's slice: 50,000 rows of 24 to 34 bytes.
  const text =
    'first,last,domain\n' +
    Array.from({ length: 50_000 }, (_, i) => `Ann${i},Lee${i % 7},site${i % 90}.com`).join('\n')

  it('reads the rows of the file’s first slice, the last cut where the slice ends, and no more', async () => {
    expect(text.length).toBeGreaterThan(rehearsalBytes)
    const slice = text.slice(0, rehearsalBytes)
    const rowsInSlice = slice.split('\n').filter((line) => line !== '').length - 1
    const read = await rehearseImport(new Blob([text]), wide, mapping, new AbortController().signal)
    expect(read).toBe(rowsInSlice)
    expect(read).toBeLessThan(50_000)
  })

  it('ends each batch in a task of its own, so that a run starting then stops it at the next batch', async () => {
    const run = new AbortController()
    let batches = 0
    // The run's start comes as a message: one queued as the first batch ends.
    const read = await rehearseImport(new Blob([text]), wide, mapping, run.signal, () => {
      if (++batches !== 1) return
      const { port1, port2 } = new MessageChannel()
      port1.onmessage = () => {
        port1.close()
        run.abort()
      }
      port2.postMessage('start')
    })
    expect(read).toBe(1_000)
    expect(batches).toBe(1)
  })

  it('stops as the run starts, and passes over a file the run will refuse', async () => {
    const run = new AbortController()
    const rehearsing = rehearseImport(new Blob([text]), wide, mapping, run.signal)
    run.abort()
    expect(await rehearsing).toBe(0)
    expect(await rehearseImport(new Blob([]), wide, mapping, new AbortController().signal)).toBe(0)
    expect(await rehearseImport(new Blob(['a,"b\n']), wide, mapping, new AbortController().signal)).toBe(0)
  })
})
