import type { BenchContext } from './context'
import type { Figure } from './figures'

export async function browserBench(_ctx: BenchContext): Promise<Figure[]> {
  return []
}
