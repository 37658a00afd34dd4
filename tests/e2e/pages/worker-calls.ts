import type { Page } from '@playwright/test'

interface Noted {
  workerCalls: string[]
}

/**
 * From the page's next load, notes the method of every call it posts to a worker (the library
 * worker's calls name one), each message sent on as it was.
 */
export async function noteWorkerCalls(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const noted = globalThis as unknown as Noted
    noted.workerCalls = []
    const worker = Worker.prototype as unknown as { postMessage(...args: unknown[]): void }
    const post = worker.postMessage
    worker.postMessage = function (this: unknown, ...args: unknown[]) {
      const message = args[0]
      if (message && typeof message === 'object' && 'method' in message)
        noted.workerCalls.push(String(message.method))
      post.apply(this, args)
    }
  })
}

/** The methods noted so far, in the order posted. */
export function workerCalls(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as Noted).workerCalls)
}
