/**
 * The app's workbook worker (`src/workers/workbook.ts`) in a process of its own, as a browser runs
 * it: `node --import tsx workbook-worker-child.ts <file.xlsx>`. Opens the workbook, asks for the
 * sheet chosen as CSV, and prints what came back and the most memory the process held.
 */
import { openAsBlob } from 'node:fs'

/**
 * The worker's protocol (`src/workers/workbook-protocol.ts`), as far as this process uses it: the
 * worker is renderer code, checked with the renderer's types, so it is loaded by its address here.
 */
type ToWorkbookWorker = { type: 'open'; file: Blob } | { type: 'csv'; sheet: string }
type FromWorkbookWorker =
  { type: 'opened'; chosen: string | null } | { type: 'csv'; file: Blob } | { type: 'failed'; error: unknown }

let listener: ((event: { data: ToWorkbookWorker }) => void) | undefined
let answered: ((message: FromWorkbookWorker) => void) | undefined
Object.assign(globalThis, {
  self: {
    addEventListener: (_type: string, handle: typeof listener) => (listener = handle),
    postMessage: (message: FromWorkbookWorker) => answered?.(message),
  },
})
await import(new URL('../../../src/workers/workbook.ts', import.meta.url).href)

function ask(message: ToWorkbookWorker): Promise<FromWorkbookWorker> {
  return new Promise((resolve) => {
    answered = resolve
    listener!({ data: message })
  })
}

const opened = await ask({ type: 'open', file: await openAsBlob(process.argv[2]!) })
if (opened.type !== 'opened' || opened.chosen === null) throw new Error(JSON.stringify(opened))
const csv = await ask({ type: 'csv', sheet: opened.chosen })
if (csv.type !== 'csv') throw new Error(JSON.stringify(csv))
let lines = 0
for await (const chunk of csv.file.stream()) for (const byte of chunk as Uint8Array) if (byte === 10) lines++
const tail = (await csv.file.slice(-200).text()).trimEnd().split('\r\n').at(-1)
process.stdout.write(
  JSON.stringify({
    sheet: opened.chosen,
    lines,
    last: tail,
    maxRss: process.resourceUsage().maxRSS * 1024,
  }),
)
