import { CardJweError } from '../errors.js'

/** An injectable clock; tests pass a fixed one, everything else reads the real time. */
export type Clock = () => Date

export function readClock(now: Clock | undefined): Date {
  const date = now ? now() : new Date()
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) {
    throw new CardJweError('ERR_INVALID_ARGUMENT', 'now: must return a valid Date')
  }
  return date
}
