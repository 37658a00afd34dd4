/**
 * The kinds of data a list run buys, and when a row (or a library record) last had each answered:
 * what decides that asking for phones after emails sends only the phones.
 */
export const dataKinds = ['email', 'phone', 'catchAll'] as const
export type DataKind = (typeof dataKinds)[number]

/** When each kind was last answered (found or not), in ms since the epoch. */
export type Answers = Partial<Record<DataKind, number>>

export interface KindOptions {
  email: boolean
  phone: boolean
  catchAll: boolean
}

export const kindLabels: Record<DataKind, string> = {
  email: 'email',
  phone: 'phone',
  catchAll: 'catch-all verification',
}

/** Catch-all verification is a check of the email: asking for it asks for the email too. */
export function kindsOf(options: KindOptions): DataKind[] {
  const kinds: DataKind[] = []
  if (options.email || options.catchAll) kinds.push('email')
  if (options.phone) kinds.push('phone')
  if (options.catchAll) kinds.push('catchAll')
  return kinds
}

export function optionsOf(kinds: readonly DataKind[]): KindOptions {
  return {
    email: kinds.includes('email'),
    phone: kinds.includes('phone'),
    catchAll: kinds.includes('catchAll'),
  }
}

const dayMs = 24 * 60 * 60 * 1000

/** The kinds answered recently enough; with `maxAgeDays` unset every answer stays good. */
export function freshKinds(answers: Answers | undefined, now: number, maxAgeDays?: number): Set<DataKind> {
  const fresh = new Set<DataKind>()
  for (const kind of dataKinds) {
    const at = answers?.[kind]
    if (at === undefined) continue
    if (maxAgeDays === undefined || now - at <= maxAgeDays * dayMs) fresh.add(kind)
  }
  return fresh
}

/** What is still to ask among `wanted`; re-verifying a catch-all asks for the email again. */
export function missingKinds(wanted: readonly DataKind[], have: ReadonlySet<DataKind>): DataKind[] {
  const missing = wanted.filter((kind) => !have.has(kind))
  if (missing.includes('catchAll') && !missing.includes('email')) missing.unshift('email')
  return dataKinds.filter((kind) => missing.includes(kind))
}

/** The stable name of a set of kinds, for grouping requests that ask the same. */
export function kindsSignature(kinds: readonly DataKind[]): string {
  return dataKinds.filter((kind) => kinds.includes(kind)).join('+')
}

/** The highest charge for one person asked for these kinds: catch-all verification costs nothing extra. */
export function maxCostOf(kinds: readonly DataKind[], prices: { email: number; phone: number }): number {
  return (kinds.includes('email') ? prices.email : 0) + (kinds.includes('phone') ? prices.phone : 0)
}
