/**
 * How many result rows go in one batch file and in one page of results. One request's answer can
 * cover any number of rows (one person on a million rows of a list): stored as one batch, it is a
 * JSON text longer than the longest string a process can hold, and fetched as one page, a message no
 * transport can carry. Stored in batches of at most `batchRows` and fetched in pages of at most about
 * `pageRows`, it goes through as any other answer.
 */
export const resultLimits = { batchRows: 5_000, pageRows: 20_000 }

/** The rows of an answer in batches of at most `resultLimits.batchRows`, in order; one batch, perhaps empty, at least. */
export function batchesOf<Row>(rows: readonly Row[]): Row[][] {
  if (rows.length <= resultLimits.batchRows) return [rows as Row[]]
  const batches: Row[][] = []
  for (let start = 0; start < rows.length; start += resultLimits.batchRows)
    batches.push(rows.slice(start, start + resultLimits.batchRows))
  return batches
}
