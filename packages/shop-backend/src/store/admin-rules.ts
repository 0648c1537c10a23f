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

/**
 * Moves an undelivered entry to dismissed_deliveries: false when it is not in the outbox (delivered
 * meanwhile). The entry is locked first: on PostgreSQL a delivery committing meanwhile is waited for,
 * and its entry then found gone, not kept as dismissed as well.
 */
export function* dismissDelivery(id: number, at: string): LedgerRule<boolean> {
  if (!(yield* first<{ id: number }>('outboxEntryForCommit', [id]))) return false
  yield* changes('keepDismissedDelivery', [id, at])
  yield* changes('delivered', [id])
  return true
}

/**
 * Moves an open problem to dismissed_problems and marks its sequence seen, so no poll (the feed read
 * again after a lost lease included) applies it later: false when it is not open (resolved meanwhile).
 * The mark goes first: a poll applying the same sequence marks it first too, so on PostgreSQL one waits
 * for the other's commit and then finds the mark, and a problem is never both applied and dismissed.
 */
export function* dismissProblem(sequence: number, at: string): LedgerRule<boolean> {
  // Marked already: mostly by a poll that applied it (its problem then gone), or by a retry that re-opened it.
  const marked = (yield* changes('markSeen', [sequence, at])) === 1
  if ((yield* changes('keepDismissedProblem', [sequence, at])) === 0) {
    if (marked) yield* changes('unmarkSeen', [sequence])
    return false
  }
  yield* changes('resolveProblem', [sequence])
  return true
}
