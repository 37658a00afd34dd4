import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { LeadkeeperDb } from '@/db/schema'
import {
  deleteSavedSearch,
  listRuns,
  listSavedSearches,
  recordRun,
  resultsOf,
  saveSearch,
  storeResults,
  updateRun,
} from '@/db/searches'

const fresh = () => new LeadkeeperDb('t-' + crypto.randomUUID())

describe('saved searches', () => {
  it('are saved, renamed in place and listed newest first by kind', async () => {
    const db = fresh()
    const first = await saveSearch(db, { kind: 'lead', name: ' CTOs ', request: { filters: { a: 1 } } })
    await saveSearch(db, { kind: 'company', name: 'Banks', request: {} })
    await new Promise((resolve) => setTimeout(resolve, 2))
    const second = await saveSearch(db, { kind: 'lead', name: 'VPs', request: {} })
    expect(first.name).toBe('CTOs')
    expect((await listSavedSearches(db, 'lead')).map((s) => s.id)).toEqual([second.id, first.id])
    await new Promise((resolve) => setTimeout(resolve, 2))
    const renamed = await saveSearch(db, { id: first.id, kind: 'lead', name: 'CTOs 2', request: {} })
    expect(renamed.createdAt).toBe(first.createdAt)
    expect((await listSavedSearches(db, 'lead')).map((s) => s.name)).toEqual(['CTOs 2', 'VPs'])
    await deleteSavedSearch(db, first.id)
    expect((await listSavedSearches(db, 'lead')).map((s) => s.name)).toEqual(['VPs'])
  })
})

describe('runs and results', () => {
  it('keep every run with what it returned and cost; storing a batch twice changes nothing', async () => {
    const db = fresh()
    const base = {
      kind: 'company' as const,
      request: { search: { filters: {} }, label: 'Banks', chainId: 'run-1' },
      state: 'running' as const,
      found: 0,
      creditsConsumed: 0,
    }
    await recordRun(db, { ...base, id: 'run-1', startedAt: 1, savedSearchId: 's1' })
    await recordRun(db, { ...base, id: 'run-2', startedAt: 2, savedSearchId: 's1' })
    await recordRun(db, { ...base, id: 'run-3', startedAt: 3 })
    await recordRun(db, { ...base, id: 'lead-1', kind: 'lead', startedAt: 4 })
    const rows = [
      { key: 'company-1', data: { company_name: 'A' } },
      { key: 'company-2', data: { company_name: 'B' } },
      { key: 'no-data' },
    ]
    expect(await storeResults(db, 'run-1', 'company', rows)).toBe(2)
    expect(await storeResults(db, 'run-1', 'company', rows)).toBe(2)
    await updateRun(db, 'run-1', { state: 'done', found: 2, creditsConsumed: 2 })
    expect((await listRuns(db, { kind: 'company' })).map((run) => run.id)).toEqual([
      'run-3',
      'run-2',
      'run-1',
    ])
    const ofSaved = await listRuns(db, { kind: 'company', savedSearchId: 's1' })
    expect(ofSaved.map((run) => [run.id, run.state, run.found, run.creditsConsumed])).toEqual([
      ['run-2', 'running', 0, 0],
      ['run-1', 'done', 2, 2],
    ])
    const [first, second] = await resultsOf(db, ['run-1', 'run-2'])
    expect(first?.map((row) => row.data['company_name'])).toEqual(['A', 'B'])
    expect(second).toEqual([])
  })
})
