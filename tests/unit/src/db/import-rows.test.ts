import { describe, expect, it } from 'vitest'
import { ImportError } from '@domain/read/errors'
import { storeRows } from '@/db/import-rows'

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
