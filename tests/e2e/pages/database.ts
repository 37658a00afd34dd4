import type { Page } from '@playwright/test'

/** Records in these tables of the app's IndexedDB database, all together, read with the raw IndexedDB API. */
export function countRecords(page: Page, stores: string[]): Promise<number> {
  return page.evaluate(
    (names) =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('leadkeeper')
        request.onerror = () => reject(request.error)
        request.onsuccess = () => {
          const database = request.result
          const transaction = database.transaction(names)
          const counts = names.map((name) => transaction.objectStore(name).count())
          transaction.oncomplete = () => {
            database.close()
            resolve(counts.reduce((sum, count) => sum + count.result, 0))
          }
          transaction.onerror = () => reject(transaction.error)
        }
      }),
    stores,
  )
}

/** How many people the app's library holds: the count kept beside their blocks. */
export function libraryPeople(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const request = indexedDB.open('leadkeeper')
        request.onerror = () => reject(request.error)
        request.onsuccess = () => {
          const database = request.result
          const read = database.transaction('contactRevs').objectStore('contactRevs').get('contacts')
          read.onsuccess = () => {
            database.close()
            resolve((read.result as { size: number } | undefined)?.size ?? 0)
          }
          read.onerror = () => reject(read.error)
        }
      }),
  )
}

/**
 * How each block of a list's rows is stored, read with the raw IndexedDB API: 'packed' as an import
 * writes it, 'coded' once its rows changed, 'rows' as objects (rows with a value that cannot be
 * coded).
 */
export function blockShapes(page: Page): Promise<('packed' | 'coded' | 'rows')[]> {
  return page.evaluate(
    () =>
      new Promise<('packed' | 'coded' | 'rows')[]>((resolve, reject) => {
        const request = indexedDB.open('leadkeeper')
        request.onerror = () => reject(request.error)
        request.onsuccess = () => {
          const database = request.result
          const read = database.transaction('listBlocks').objectStore('listBlocks').getAll()
          read.onsuccess = () => {
            database.close()
            resolve(
              (read.result as object[]).map((block) =>
                'layout' in block ? 'packed' : 'shape' in block ? 'coded' : 'rows',
              ),
            )
          }
          read.onerror = () => reject(read.error)
        }
      }),
  )
}
