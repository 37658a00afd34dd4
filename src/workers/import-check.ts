import { checkRows, type ImportLists, type ImportTarget, type RowChecker } from '@/db/import-rows'
import { ImportError, importProblem, type ImportProblem } from '@domain/read/errors'
import type { ParseControl, ParseOptions } from '@domain/read/parse'
import { packIssues, unpackIssues, type ValidationSummary } from '@domain/validation'
import type { CheckAnswer } from './import-protocol'

/** Where the check worker answers: its MessagePort to the store worker. */
export interface AnswerTo {
  postMessage(answer: CheckAnswer, transfer: Transferable[]): void
}

/**
 * The check worker's run: parses and checks the file (`checkRows`) and answers each batch's issues,
 * then the summary, or why it stopped, to the store worker. Never throws: a failure is an answer.
 */
export async function answerChecks(
  to: AnswerTo,
  source: AsyncIterable<Uint8Array>,
  options: ParseOptions,
  target: Pick<ImportTarget, 'mapping'>,
  lists: Pick<ImportLists, 'knownIdentities'>,
  control: ParseControl = {},
): Promise<void> {
  try {
    const validation = await checkRows(
      source,
      options,
      target,
      lists,
      (startIndex, issues) => {
        const packed = packIssues(issues)
        to.postMessage({ type: 'checked', startIndex, issues: packed }, [packed.buffer])
      },
      control,
    )
    to.postMessage({ type: 'summary', validation }, [])
  } catch (error) {
    to.postMessage({ type: 'failed', error: importProblem(error) }, [])
  }
}

/** Where the answers are read from: a MessagePort, or anything that delivers messages in order. */
export interface AnswerPort {
  onmessage: ((event: MessageEvent<CheckAnswer>) => void) | null
  close(): void
}

/**
 * The rows' check as the check worker answers it over `port` (`CheckAnswer`, in the batches' order):
 * the store worker's `RowChecker`. A batch whose answer is not the next one, a check that stopped
 * and an abort of `signal` all end the wait with an error.
 */
export function checkedElsewhere(port: AnswerPort, signal?: AbortSignal): RowChecker {
  const arrived: CheckAnswer[] = []
  let waiting: { resolve(answer: CheckAnswer): void; reject(error: unknown): void } | null = null
  let stopped: unknown = null

  port.onmessage = (event) => {
    if (waiting) {
      const { resolve } = waiting
      waiting = null
      resolve(event.data)
    } else arrived.push(event.data)
  }
  const stop = (error: unknown): void => {
    stopped = error
    port.onmessage = null
    port.close()
    if (waiting) {
      const { reject } = waiting
      waiting = null
      reject(error)
    }
  }
  signal?.addEventListener('abort', () => stop(new ImportError('cancelled', 'The import was cancelled.')), {
    once: true,
  })

  function next(): Promise<CheckAnswer> {
    if (stopped !== null) return Promise.reject(stopped)
    const answer = arrived.shift()
    if (answer) return Promise.resolve(answer)
    return new Promise((resolve, reject) => (waiting = { resolve, reject }))
  }

  async function expect<T extends CheckAnswer['type']>(
    type: T,
    what: string,
  ): Promise<Extract<CheckAnswer, { type: T }>> {
    const answer = await next()
    if (answer.type === 'failed') {
      const error = thrown(answer.error)
      stop(error)
      throw error
    }
    if (answer.type !== type) {
      const error = new Error(`The rows' check answered out of order: ${answer.type} for ${what}.`)
      stop(error)
      throw error
    }
    return answer as Extract<CheckAnswer, { type: T }>
  }

  return {
    // The check worker reads the rows' cells itself.
    columns: [],
    async check(startIndex, rows) {
      const answer = await expect('checked', `the rows from ${startIndex}`)
      if (answer.startIndex !== startIndex || answer.issues.length !== rows.length) {
        const error = new Error(
          `The rows' check answered for ${answer.issues.length} rows from ${answer.startIndex}, not ${rows.length} from ${startIndex}.`,
        )
        stop(error)
        throw error
      }
      return unpackIssues(answer.issues)
    },
    async summary(): Promise<ValidationSummary> {
      const { validation } = await expect('summary', 'the summary')
      stop(new Error("The rows' check has ended."))
      return validation
    },
  }
}

/** The check worker's problem as the error the store worker's run then stops with. */
function thrown(problem: ImportProblem): Error {
  if (problem.code === 'internal') return new Error(problem.message)
  return new ImportError(problem.code, problem.message, problem.line)
}
