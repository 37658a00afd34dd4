import {
  sameCounts,
  surveyCounts,
  type OriginSurvey,
  type RecordPage,
  type SourceAnswer,
  type SourceRequest,
  type StoreCounts,
} from '../../electron/shared/origin-move'
import { countRecords, recreateDatabase, writeRecords, writeStorage } from './sink'

/** Where the records come from: the hidden window through main in the desktop app, a test's relay in e2e. */
export type ReadSource = (request: SourceRequest) => Promise<SourceAnswer>

export interface MoveProgress {
  /** Records written, of `total` in every database. */
  done: number
  total: number
}

export class MoveError extends Error {}

async function ask(read: ReadSource, request: SourceRequest): Promise<SourceAnswer & { ok: true }> {
  const answer = await read(request)
  if (!answer.ok) throw new MoveError(answer.message)
  return answer
}

async function surveyOf(read: ReadSource): Promise<OriginSurvey> {
  const answer = await ask(read, { kind: 'survey' })
  if (!('survey' in answer)) throw new MoveError('The old data answered with something other than its list.')
  return answer.survey
}

async function pageOf(read: ReadSource, request: SourceRequest): Promise<RecordPage> {
  const answer = await ask(read, request)
  if (!('page' in answer)) throw new MoveError('The old data answered with something other than records.')
  return answer.page
}

/**
 * Copies every database and the app's localStorage from the source into this origin: each database
 * recreated at its own version with its stores and indexes, then its records written page by page in
 * key order; then each store counted. Returns the counts, once they equal the source's. Nothing is
 * ever deleted at the source; a move cut short is started again from nothing (`recreateDatabase`).
 * Must run before the app opens its database, which then upgrades what it finds as usual.
 */
export async function moveOrigin(
  read: ReadSource,
  target: { idb: IDBFactory; storage: Storage | null },
  onProgress: (progress: MoveProgress) => void = () => undefined,
): Promise<StoreCounts> {
  const survey = await surveyOf(read)
  const expected = surveyCounts(survey)
  const progress: MoveProgress = {
    done: 0,
    total: survey.databases.reduce(
      (sum, database) => sum + database.stores.reduce((inner, store) => inner + store.count, 0),
      0,
    ),
  }
  onProgress({ ...progress })
  const found: StoreCounts = {}
  for (const shape of survey.databases) {
    const database = await recreateDatabase(target.idb, shape)
    try {
      for (const store of shape.stores) {
        let after: unknown
        for (;;) {
          const page = await pageOf(read, { kind: 'page', database: shape.name, store: store.name, after })
          await writeRecords(database, store, page.records)
          progress.done += page.records.length
          onProgress({ ...progress })
          if (page.last || page.records.length === 0) break
          after = page.records[page.records.length - 1]!.key
        }
      }
      found[shape.name] = await countRecords(database)
    } finally {
      database.close()
    }
  }
  if (!sameCounts(expected, found)) {
    throw new MoveError('The copy does not hold as many records as your data: it will be made again.')
  }
  writeStorage(target.storage, survey.localStorage)
  return found
}
