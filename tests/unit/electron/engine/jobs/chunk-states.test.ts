import { describe, expect, it } from 'vitest'
import {
  chunkTransitions,
  nextChunkState,
  restartEvents,
  type ChunkEvent,
  type Resolution,
} from '../../../../../electron/engine/jobs/chunk-states'
import type { ChunkState, UncertainPolicy } from '../../../../../electron/domain/jobs'

const states: ChunkState[] = [
  'pending',
  'submitting',
  'submitted',
  'on_hold',
  'held_final',
  'uncertain',
  'timed_out',
  'done',
  'failed',
  'skipped',
]
const events = Object.keys(chunkTransitions) as ChunkEvent[]
/** States in which the service may hold the chunk's request, so that sending it again may charge twice. */
const mayBeHeld: ChunkState[] = ['submitting', 'submitted', 'on_hold', 'timed_out', 'uncertain']
const ended: ChunkState[] = ['done', 'failed', 'skipped']

function tryMove(from: ChunkState, event: ChunkEvent): ChunkState | null {
  try {
    return nextChunkState(from, event)
  } catch {
    return null
  }
}

describe('the chunk state table', () => {
  it('names every state it changes from and to', () => {
    for (const event of events)
      for (const [from, to] of Object.entries(chunkTransitions[event])) {
        expect(states).toContain(from)
        expect(states).toContain(to)
      }
  })

  it('answers each of the 150 pairs of state and event: the table’s change, or a throw that names both', () => {
    let allowed = 0
    for (const from of states)
      for (const event of events) {
        const to = (chunkTransitions[event] as Partial<Record<ChunkState, ChunkState>>)[from]
        if (to === undefined) {
          expect(() => nextChunkState(from, event)).toThrow(`A chunk cannot go from ${from} on ${event}.`)
        } else {
          expect(nextChunkState(from, event)).toBe(to)
          allowed += 1
        }
      }
    expect(states.length * events.length).toBe(150)
    expect(allowed).toBe(23)
  })

  it('never changes a chunk that ended', () => {
    for (const from of ended) for (const event of events) expect(tryMove(from, event)).toBeNull()
  })

  it('makes a chunk the service may hold sendable again only by resend from uncertain, or when refused before anything was created', () => {
    for (const from of mayBeHeld)
      for (const event of events) {
        if (tryMove(from, event) !== 'pending') continue
        // `refused` is the client's word that nothing was created: the only other way back.
        expect(`${from} ${event}`).toMatch(/^(uncertain resend|submitting refused)$/)
      }
  })

  it('sends only from pending, and reaches done only through an answered request', () => {
    for (const from of states) {
      expect(tryMove(from, 'send') !== null).toBe(from === 'pending')
      for (const event of events)
        if (tryMove(from, event) === 'done') expect(['submitted', 'on_hold']).toContain(from)
    }
  })

  it('reaches every state from pending', () => {
    const reached = new Set<ChunkState>(['pending'])
    for (let round = 0; round < states.length; round++)
      for (const from of [...reached])
        for (const event of events) {
          const to = tryMove(from, event)
          if (to) reached.add(to)
        }
    expect([...reached].sort()).toEqual([...states].sort())
  })
})

describe('a new run, for every state a previous run may have left', () => {
  const resolutions: Resolution[] = [undefined, 'resubmit', 'skip']
  const policies: UncertainPolicy[] = ['ask', 'skip', 'resubmit']

  /** What the user was promised, written out apart from the code. */
  function expected(
    state: ChunkState,
    hasRequest: boolean,
    submissions: number,
    resolution: Resolution,
    policy: UncertainPolicy,
  ): ChunkState {
    const uncertain = (): ChunkState => {
      if (resolution === 'resubmit') return 'pending'
      if (resolution === 'skip') return 'skipped'
      if (policy === 'skip') return 'skipped'
      if (policy === 'resubmit' && submissions < 2) return 'pending'
      return 'uncertain'
    }
    switch (state) {
      case 'submitting':
      case 'uncertain':
        return uncertain()
      case 'timed_out':
        return resolution === 'skip' ? 'skipped' : hasRequest ? 'submitted' : 'timed_out'
      case 'held_final':
        return 'pending'
      default:
        return state
    }
  }

  it('ends each of the 360 cases where the caller and the job’s policy say, through the table', () => {
    let cases = 0
    for (const state of states)
      for (const hasRequest of [true, false])
        for (const submissions of [1, 2])
          for (const resolution of resolutions)
            for (const policy of policies) {
              const chunk = { state, requestId: hasRequest ? 'req-1' : undefined, submissions }
              let now = state
              for (const event of restartEvents(chunk, resolution, policy)) now = nextChunkState(now, event)
              expect(
                now,
                `${state}, request ${hasRequest}, ${submissions} sent, ${resolution}, ${policy}`,
              ).toBe(expected(state, hasRequest, submissions, resolution, policy))
              cases += 1
            }
    expect(cases).toBe(360)
  })

  it('never leaves a chunk sending, and sends again a chunk that may have reached the service only on a say-so', () => {
    for (const state of states)
      for (const resolution of resolutions)
        for (const policy of policies) {
          const chunk = { state, requestId: 'req-1', submissions: 2 }
          const steps = restartEvents(chunk, resolution, policy)
          let now = state
          for (const event of steps) now = nextChunkState(now, event)
          expect(now).not.toBe('submitting')
          if (steps.includes('resend')) expect(resolution).toBe('resubmit')
        }
  })
})
