// Reads a list file as `enrich` does and prints its row count and the most memory the process held.
import { readList } from '../../../electron/cli/csv'

const list = await readList(process.argv[2]!)
const last = list.rows[list.rows.length - 1]!
process.stdout.write(
  JSON.stringify({
    rows: list.rows.length,
    columns: list.columns,
    last,
    maxRss: process.resourceUsage().maxRSS * 1024,
  }),
)
