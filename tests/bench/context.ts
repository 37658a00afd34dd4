/** What every bench receives from the runner. */
export interface BenchContext {
  /** Smaller sizes, for a smoke run. */
  quick: boolean
  /** Progress on stderr, so stdout holds the table alone. */
  log: (message: string) => void
}
