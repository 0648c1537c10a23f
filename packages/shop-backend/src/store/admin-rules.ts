/**
 * The admin's writes on the outbox and the poll problems, once for every SQL store: each one
 * transaction, so a dismissed record is either still open or kept as dismissed, never lost.
 */
import { changes, first, type LedgerRule } from './steps.js'

/** Makes the entry (and its order's earlier undelivered ones) due at `now`: false when it is not in the outbox. */
export function* deliverNow(id: number, now: string): LedgerRule<boolean> {
  if (!(yield* first<{ id: number }>('outboxEntry', [id]))) return false
  yield* changes('deliverNow', [id, now])
  return true
}

/** Moves an undelivered entry to dismissed_deliveries: false when it is not in the outbox (delivered meanwhile). */
export function* dismissDelivery(id: number, at: string): LedgerRule<boolean> {
  if ((yield* changes('keepDismissedDelivery', [id, at])) === 0) return false
  yield* changes('delivered', [id])
  return true
}

/**
 * Moves an open problem to dismissed_problems and marks its sequence seen, so no poll (the feed read
 * again after a lost lease included) applies it later: false when it is not open (resolved meanwhile).
 */
export function* dismissProblem(sequence: number, at: string): LedgerRule<boolean> {
  if ((yield* changes('keepDismissedProblem', [sequence, at])) === 0) return false
  yield* changes('resolveProblem', [sequence])
  yield* changes('markSeen', [sequence, at])
  return true
}
