import type { RowQuery } from './row-query'
import type { RowRecord } from './records'

/** Messages between the page and the query worker. */
export type QueryRequest =
  | { id: number; type: 'view'; listId: string; query: Omit<RowQuery, 'offset' | 'limit'> }
  | { id: number; type: 'rows'; listId: string; start: number; count: number }
  | { id: number; type: 'warm'; listId: string }
  | { id: number; type: 'indexes'; listId: string }

export type QueryReply =
  | { id: number; ok: true; result: number | null | RowRecord[] | Int32Array | undefined }
  | { id: number; ok: false; message: string }
