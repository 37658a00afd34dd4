import { answerExport } from '@/workers/export-answer'
import type { FromExportWorker, ToExportWorker } from '@/workers/export-protocol'

/** Writes a list, or a part of it, to a file off the page's thread (see `export-client.ts`). */
const scope: {
  postMessage(message: FromExportWorker): void
  onmessage: ((event: MessageEvent<ToExportWorker>) => void) | null
} = self

scope.onmessage = ({ data }) => void answerExport(data, (message) => scope.postMessage(message))
