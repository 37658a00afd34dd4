import { ServiceError } from '../client/errors'
import { nextChunkState, type ChunkEvent } from './chunk-states'
import type { ChunkRecord, JobError } from '../../domain/jobs'

export const now = (): string => new Date().toISOString()

/** Every change of a chunk's state goes through the table (`chunk-states.ts`). */
export function move(chunk: ChunkRecord, event: ChunkEvent): void {
  chunk.state = nextChunkState(chunk.state, event)
}

export function jobError(error: unknown): JobError {
  if (error instanceof ServiceError) return { code: error.code, message: error.message }
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}
