import {
  dataKinds,
  freshKinds,
  kindsOf,
  missingKinds,
  type Answers,
  type DataKind,
  type KindOptions,
} from './kinds'
import { identityOf, isSendable, personKeyOf, type Lead } from './person'

/**
 * What a list run does with each row, per kind of data: ask the service (once per person, however
 * many rows name them), copy from another row of the same person that already has the answer, take
 * it from the library, or nothing. The app and the command line both decide with this; only rows
 * with something to ask are sent, and every other row still comes back whole.
 */

export interface RunRequest extends KindOptions {
  /** Answers older than this many days are asked again; unset keeps every answer. */
  refreshAfterDays?: number
  /**
   * Send again the people whose rows an earlier run gave up while the outcome was unknown (they may
   * have been charged once already). Off unless the user says so.
   */
  resendGivenUp?: boolean
  now: number
}

export interface RunRowInput {
  key: string
  index: number
  lead: Lead
  answers?: Answers
  /** The user chose not to send this row. */
  skip?: boolean
  /** An earlier run gave this row up while its request's outcome was unknown: it may have been charged. */
  givenUp?: boolean
}

/** What the library holds about a person: when each kind was answered. */
export interface LibraryKnowledge {
  contactId: string
  answers: Answers
}

export interface RowDecision {
  key: string
  index: number
  /** Kinds asked of the service for this row's person (charged once for all their rows). */
  send: DataKind[]
  /** Kinds copied from other rows of the same person that hold them, not charged. */
  twins: { index: number; kinds: DataKind[] }[]
  /** Kinds taken from the library, not charged. */
  library?: { contactId: string; kinds: DataKind[] }
  /** `held`: given up by an earlier run while its outcome was unknown, not sent again unasked. */
  outcome: 'send' | 'copy' | 'answered' | 'invalid' | 'skipped' | 'held'
}

/** One vocabulary of counts: rows unless the name says people. */
export interface RunCounts {
  rows: number
  /** People asked of the service. */
  people: number
  /** Rows that go with them (a person named twice is two rows, one person). */
  rowsSent: number
  /** Of those rows, the ones asked again because their answer is older than the refresh age. */
  refreshed: number
  /** Of those rows, the ones an earlier run gave up while their outcome was unknown (maybe charged). */
  givenUpBefore: number
  /** Rows an earlier run gave up while their outcome was unknown, held back: sending may charge twice. */
  held: number
  /** Rows given another row's answer, not charged (those with nothing left to send). */
  copied: number
  /** Rows given the library's answer, not charged (those with nothing left to send). */
  fromLibrary: number
  /** Rows that already hold every kind asked. */
  answered: number
  invalid: number
  skipped: number
  /** People asked per kind. */
  peopleByKind: Record<DataKind, number>
}

export interface RunPlan {
  decisions: RowDecision[]
  counts: RunCounts
}

/** `lookup` gives what the library holds for an identity ('first last@domain'), if anything. */
export function decideRun(
  rows: readonly RunRowInput[],
  request: RunRequest,
  lookup: (identity: string) => LibraryKnowledge | undefined = () => undefined,
): RunPlan {
  const wanted = kindsOf(request)
  const fresh = (answers: Answers | undefined) => freshKinds(answers, request.now, request.refreshAfterDays)
  const counts: RunCounts = {
    rows: rows.length,
    people: 0,
    rowsSent: 0,
    refreshed: 0,
    givenUpBefore: 0,
    held: 0,
    copied: 0,
    fromLibrary: 0,
    answered: 0,
    invalid: 0,
    skipped: 0,
    peopleByKind: { email: 0, phone: 0, catchAll: 0 },
  }
  const decisions: RowDecision[] = new Array(rows.length)
  const groups = new Map<string, number[]>()
  rows.forEach((row, at) => {
    const base = { key: row.key, index: row.index, send: [], twins: [] }
    // A row that cannot be sent is invalid whether or not it was also skipped: the reason is its own.
    if (!isSendable(row.lead)) {
      decisions[at] = { ...base, outcome: 'invalid' }
      counts.invalid++
    } else if (row.skip) {
      decisions[at] = { ...base, outcome: 'skipped' }
      counts.skipped++
    } else {
      const person = personKeyOf(row.lead)
      const group = groups.get(person)
      if (group) group.push(at)
      else groups.set(person, [at])
    }
  })

  for (const members of groups.values()) {
    const own = members.map((at) => fresh(rows[at]!.answers))
    const holder = new Map<DataKind, number>()
    for (const kind of dataKinds) {
      const found = members.findIndex((_, m) => own[m]!.has(kind))
      if (found >= 0) holder.set(kind, found)
    }
    // Rows found by profile URL may lack a name: the library is asked by the first row that has one.
    const identity = members.map((at) => identityOf(rows[at]!.lead)).find(Boolean)
    const library = identity ? lookup(identity) : undefined
    const inLibrary = fresh(library?.answers)
    let send = missingKinds(wanted, new Set([...holder.keys(), ...inLibrary]))
    // A person whose rows were all given up while their request's outcome was unknown may have been
    // charged already: they are held back unless the user asked to send them again.
    const held = send.length > 0 && !request.resendGivenUp && members.every((at) => rows[at]!.givenUp)
    if (held) send = []
    if (send.length > 0) {
      counts.people++
      for (const kind of send) counts.peopleByKind[kind]++
    }
    members.forEach((at, m) => {
      const row = rows[at]!
      const missing = missingKinds(wanted, own[m]!).filter((kind) => !send.includes(kind))
      const twins = new Map<number, DataKind[]>()
      const fromLibrary: DataKind[] = []
      for (const kind of missing) {
        const from = holder.get(kind)
        if (from !== undefined && from !== m) {
          const index = rows[members[from]!]!.index
          twins.set(index, [...(twins.get(index) ?? []), kind])
        } else if (inLibrary.has(kind)) fromLibrary.push(kind)
      }
      const decision: RowDecision = {
        key: row.key,
        index: row.index,
        send,
        twins: [...twins].map(([index, kinds]) => ({ index, kinds })),
        ...(fromLibrary.length > 0 ? { library: { contactId: library!.contactId, kinds: fromLibrary } } : {}),
        outcome: held ? 'held' : send.length > 0 ? 'send' : missing.length > 0 ? 'copy' : 'answered',
      }
      decisions[at] = decision
      if (decision.outcome === 'send') {
        counts.rowsSent++
        if (send.some((kind) => row.answers?.[kind] !== undefined)) counts.refreshed++
        if (row.givenUp) counts.givenUpBefore++
      } else if (decision.outcome === 'held') counts.held++
      else if (decision.outcome === 'answered') counts.answered++
      else if (fromLibrary.length > 0 && twins.size === 0) counts.fromLibrary++
      else counts.copied++
    })
  }
  return { decisions, counts }
}
