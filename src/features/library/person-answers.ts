import type { Answers } from '@domain/kinds'
import type { ContactChange } from '@/db/records'
import { formatDay } from '@/ui/format'

/** What a person's answers say, one phrase a kind of data answered: "email found 3 Nov". */
export interface AnswerPhrase {
  kind: 'email' | 'phone' | 'catchAll'
  found: boolean
  at: number
  text: string
}

/**
 * Each kind of data the service answered for a person, with the day of its latest answer, newest
 * last: "email found 3 Nov", "phone not found 28 Nov", "catch-all checked 28 Nov". Found is told by
 * what the record holds now, as the library keeps the latest answer.
 */
export function answerPhrases(
  answers: Answers,
  person: { email: string; phone: string; emailStatus: string },
  now: number = Date.now(),
): AnswerPhrase[] {
  const phrases: AnswerPhrase[] = []
  const day = (at: number) => formatDay(at, now)
  if (answers.email !== undefined) {
    const found = person.email !== ''
    phrases.push({
      kind: 'email',
      found,
      at: answers.email,
      text: `email ${found ? 'found' : 'not found'} ${day(answers.email)}`,
    })
  }
  if (answers.phone !== undefined) {
    const found = person.phone !== ''
    phrases.push({
      kind: 'phone',
      found,
      at: answers.phone,
      text: `phone ${found ? 'found' : 'not found'} ${day(answers.phone)}`,
    })
  }
  if (answers.catchAll !== undefined) {
    const found = person.emailStatus !== ''
    phrases.push({
      kind: 'catchAll',
      found,
      at: answers.catchAll,
      text: `catch-all ${found ? 'checked' : 'not checked'} ${day(answers.catchAll)}`,
    })
  }
  return phrases.sort((a, b) => a.at - b.at)
}

/** What an answer changed, as a sentence: "Moved from Initech to Globex, seen 28 Nov". */
export function changePhrase(change: ContactChange, now: number = Date.now()): string {
  const seen = `seen ${formatDay(change.at, now)}`
  if (change.field === 'company') return `Moved from ${change.from} to ${change.to}, ${seen}`
  const what = change.field === 'jobTitle' ? 'Title' : 'Email'
  return `${what} changed from ${change.from} to ${change.to}, ${seen}`
}

/** The label of the library's facet of people whose latest answer changed something. */
export const changedLabel = (value: string): string =>
  value === 'changed' ? 'Changed since the last answer' : value
