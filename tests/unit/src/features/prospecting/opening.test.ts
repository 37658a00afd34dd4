import { describe, expect, it } from 'vitest'
import type { SavedSearch, SearchRun } from '@/db/records'
import { openingOf } from '@/features/prospecting/opening'

const run = (id: string, kind: SearchRun['kind'], savedSearchId?: string): SearchRun => {
  const fields = {
    id,
    ...(savedSearchId ? { savedSearchId } : {}),
    startedAt: 0,
    state: 'done' as const,
    found: 0,
    creditsConsumed: 0,
  }
  const request = { search: { filters: {} }, label: id, chainId: id }
  return kind === 'lead' ? { ...fields, kind, request } : { ...fields, kind, request }
}
const saved = (id: string, kind: SavedSearch['kind']): SavedSearch => ({
  id,
  kind,
  name: id,
  request: {},
  createdAt: 0,
  updatedAt: 0,
})

describe('openingOf', () => {
  // Newest first, as the searches store keeps them.
  const runs = [run('c3', 'company'), run('l2', 'lead', 'vp'), run('l1', 'lead')]
  const all = [saved('vp', 'lead'), saved('saas', 'company')]

  it('comes back on the latest search of the page without an address', () => {
    expect(openingOf({}, 'lead', runs, all)).toEqual({ saved: null, run: runs[1] })
    expect(openingOf({}, 'company', runs, all)).toEqual({ saved: null, run: runs[0] })
  })
  it('opens the saved search asked for, with its latest run', () => {
    expect(openingOf({ saved: 'vp' }, 'lead', runs, all)).toEqual({ saved: all[0], run: runs[1] })
    expect(openingOf({ saved: 'saas' }, 'company', runs, all)).toEqual({ saved: all[1], run: null })
  })
  it('opens the run asked for, and ignores what belongs to the other page or does not exist', () => {
    expect(openingOf({ run: 'l1' }, 'lead', runs, all).run).toBe(runs[2])
    expect(openingOf({ run: 'c3' }, 'lead', runs, all).run).toBe(runs[1])
    expect(openingOf({ saved: 'saas' }, 'lead', runs, all)).toEqual({ saved: null, run: runs[1] })
    expect(openingOf({ saved: 'gone' }, 'lead', [], all)).toEqual({ saved: null, run: null })
  })
})
