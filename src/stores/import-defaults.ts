import type { RowIssue } from '@/db/records'
import { issueKinds } from '@domain/validation'

/** Every category is skipped unless the user says otherwise: nothing doubtful is paid for by default. */
export const defaultSkips = (): Record<RowIssue, boolean> =>
  Object.fromEntries(issueKinds.map((kind) => [kind, true])) as Record<RowIssue, boolean>

/** The name a list gets from its file: the file's name without its extension. */
export const baseName = (fileName: string) => fileName.replace(/\.(csv|tsv|txt|xlsx|xlsm)$/i, '') || fileName
