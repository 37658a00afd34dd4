import Dexie from 'dexie'
import { describe, expect, it } from 'vitest'
import { openProblem } from '@/ui/open-problem'

describe('openProblem', () => {
  it('tells a full disk from a refused write, wrapped or not', () => {
    const refused = new DOMException('Quota exceeded.', 'QuotaExceededError')
    expect(openProblem(refused).kind).toBe('disk')
    expect(openProblem(new Dexie.OpenFailedError('failed', refused)).kind).toBe('disk')
    expect(openProblem(new Dexie.QuotaExceededError('full')).title).toBe('Not enough free disk space')
  })

  it('tells a full disk from an aborted opening when the storage has less room left than the data takes', () => {
    const aborted = new Dexie.OpenFailedError('failed', new DOMException('Aborted.', 'AbortError'))
    const tight = openProblem(aborted, { usage: 3 * 2 ** 30, quota: 5 * 2 ** 30 })
    expect(tight.kind).toBe('disk')
    expect(tight.message).toContain('Your data takes 3.0 GB, and less than that is left.')
    expect(tight.message).toContain('Nothing was lost')
    expect(openProblem(aborted, { usage: 2 ** 30, quota: 5 * 2 ** 30 }).kind).toBe('other')
    expect(openProblem(aborted).kind).toBe('other')
    const storage = new Dexie.OpenFailedError('failed', new DOMException('Internal error.', 'UnknownError'))
    expect(openProblem(storage, { usage: 3 * 2 ** 30, quota: 5 * 2 ** 30 }).kind).toBe('disk')
  })

  it('says what else went wrong, in the words of the error at its root', () => {
    const inner = new DOMException('The transaction has finished.', 'TransactionInactiveError')
    expect(
      openProblem(new Dexie.OpenFailedError('TransactionInactiveError: whatever', inner)).message,
    ).toContain('on this computer: The transaction has finished. Nothing was changed.')
    const problem = openProblem(new Error('The database is corrupt.'))
    expect(problem).toEqual({
      kind: 'other',
      title: 'Your data could not be opened',
      message:
        'Leadkeeper could not open the data kept on this computer: The database is corrupt. Nothing was changed. Try again; if it happens again, restart Leadkeeper.',
    })
  })
})
