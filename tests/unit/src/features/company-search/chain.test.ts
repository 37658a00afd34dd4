import { describe, expect, it } from 'vitest'
import type { JobView } from '@shared/contract'
import type { SearchRun } from '@/db/records'
import { chainRuns, companiesFound, fetchedOffsets } from '@/features/company-search/chain'

const run = (id: string, chainId: string, startedAt: number, offset: number, pages: number): SearchRun => ({
  id,
  kind: 'company',
  request: { search: { filters: { is_b2b: true }, limit: 10, offset, pages }, label: 'x', chainId },
  startedAt,
  state: 'done',
  found: 0,
  creditsConsumed: 0,
})

const view = (done: number, totalAvailable?: number) =>
  ({
    chunkStates: { done },
    ...(totalAvailable !== undefined ? { totalAvailable } : {}),
  }) as unknown as JobView

describe('a company search chain', () => {
  const runs = [
    run('b', 'a', 2, 10, 1),
    run('other', 'other', 3, 0, 1),
    run('a', 'a', 1, 0, 1),
    run('c', 'a', 4, 20, 3),
  ]

  it('gathers the runs of one search, oldest first', () => {
    expect(chainRuns(runs, 'a').map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(chainRuns(runs, null)).toEqual([])
  })

  it('knows which pages are fetched from the finished pages of each run', () => {
    const views = new Map([
      ['a', view(1, 65)],
      ['b', view(1, 65)],
      ['c', view(2)],
    ])
    expect(fetchedOffsets(chainRuns(runs, 'a'), views)).toEqual([0, 10, 20, 30])
    expect(companiesFound(chainRuns(runs, 'a'), views)).toBe(65)
    expect(companiesFound(chainRuns(runs, 'a'), new Map())).toBeNull()
  })
})
