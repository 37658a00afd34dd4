import type { ChunkRecord, ChunkState, JobRecord } from '../../domain/jobs'

/**
 * Every change of a chunk's state, by what happened to it: the one table a run follows. A change
 * not in it is a bug, and throws before anything is written or sent. Pure: no I/O, no clock.
 *
 * The money rule it keeps: a chunk the service may hold (submitting, submitted, on hold, timed out,
 * uncertain) is never made `pending` — sendable — except by `resend`, which only the user's say-so
 * or the job's one automatic resubmission asks for; a chunk that ended (done, failed, skipped) never
 * changes again.
 */
export const chunkTransitions = {
  /** Its intent is on disk; its POST is about to leave. */
  send: { pending: 'submitting' },
  /** The service gave a request id. */
  accepted: { submitting: 'submitted' },
  /** The POST may or may not have reached the service. */
  unsure: { submitting: 'uncertain' },
  /** Refused, or failed, before the service created anything (the client says so only when sure). */
  refused: { submitting: 'pending' },
  /** A poll answered: still processing, or processing again after a top-up. */
  processing: { submitted: 'submitted', on_hold: 'submitted' },
  /** A poll answered: paused for credits, to resume by itself after a top-up. */
  held: { submitted: 'on_hold', on_hold: 'on_hold' },
  /** A company search page went on hold: it charged nothing and never resumes. */
  heldFinal: { submitted: 'held_final', on_hold: 'held_final' },
  /** Polled longer than allowed: polled again later, never sent again. */
  timedOut: { submitted: 'timed_out', on_hold: 'timed_out' },
  /** Its results are on disk. */
  done: { submitted: 'done', on_hold: 'done' },
  /** Refused for good, or the service no longer knows the request; its rows' results are on disk. */
  fail: { submitting: 'failed', submitted: 'failed', on_hold: 'failed' },
  /** Given up by the user's or the job's say; its rows' results are on disk. */
  skip: { uncertain: 'skipped', timed_out: 'skipped' },
  /** Sent again on the user's say-so or the job's one automatic resubmission: may charge twice. */
  resend: { uncertain: 'pending' },
  /** A new run finds the POST's intent without its answer: the process stopped while sending. */
  interrupted: { submitting: 'uncertain' },
  /** A new run polls a timed-out request again: it exists, and polling is free. */
  repoll: { timed_out: 'submitted' },
  /** A new run sends a held company search page again: it charged nothing. */
  retryPage: { held_final: 'pending' },
} as const satisfies Record<string, Partial<Record<ChunkState, ChunkState>>>

export type ChunkEvent = keyof typeof chunkTransitions

/** The state `event` leaves a chunk in, or a throw when the table has no such change. */
export function nextChunkState(from: ChunkState, event: ChunkEvent): ChunkState {
  const next = (chunkTransitions[event] as Partial<Record<ChunkState, ChunkState>>)[from]
  if (next === undefined) throw new Error(`A chunk cannot go from ${from} on ${event}.`)
  return next
}

/** The caller's decision for this run about uncertain and timed-out requests, if any. */
export type Resolution = 'resubmit' | 'skip' | undefined

/** What the job's policy does with an uncertain chunk when the caller said nothing: null waits for them. */
export function uncertainPolicy(
  chunk: Pick<ChunkRecord, 'submissions'>,
  onUncertain: JobRecord['onUncertain'],
): 'skip' | 'resend' | null {
  if (onUncertain === 'skip') return 'skip'
  // One automatic resubmission at most: a service failing after every create would otherwise charge again and again.
  if (onUncertain === 'resubmit' && chunk.submissions < 2) return 'resend'
  return null
}

/**
 * What a new run does first with a chunk a previous run left behind, in order: an interrupted send
 * becomes uncertain; a timed-out request is polled again (or skipped, if the caller said so); a held
 * company page is sent again; an uncertain chunk follows the caller's say, else the job's policy.
 */
export function restartEvents(
  chunk: Pick<ChunkRecord, 'state' | 'requestId' | 'submissions'>,
  resolution: Resolution,
  onUncertain: JobRecord['onUncertain'],
): ChunkEvent[] {
  const events: ChunkEvent[] = []
  let state = chunk.state
  const apply = (event: ChunkEvent) => {
    events.push(event)
    state = nextChunkState(state, event)
  }
  if (state === 'submitting') apply('interrupted')
  if (state === 'timed_out' && resolution === 'skip') apply('skip')
  else if (state === 'timed_out' && chunk.requestId) apply('repoll')
  if (state === 'held_final') apply('retryPage')
  if (state === 'uncertain') {
    const say =
      resolution === 'resubmit'
        ? 'resend'
        : resolution === 'skip'
          ? 'skip'
          : uncertainPolicy(chunk, onUncertain)
    if (say) apply(say)
  }
  return events
}
