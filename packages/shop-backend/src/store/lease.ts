/**
 * The lease (the poller's: one instance polls at a time), and its rules once for every store: when
 * it expires, whether a claim still holds it, how it is taken.
 */
import { type LeaseRow, leaseOf } from './ledger-rows.js'
import { changes, first, type LedgerRule } from './steps.js'

/** A named lease (the poller's: one instance polls at a time): who holds it, until when. */
export interface Lease {
  /** `poller`. */
  readonly name: string
  /** The instance that holds it (a random id per process). */
  readonly holder: string
  /** ISO 8601: free for another instance from then on. */
  readonly expiresAt: string
}

/** What {@link LedgerStore.acquireLease} answers. */
export interface LeaseAnswer {
  /** Whether `holder` holds the lease now. */
  readonly acquired: boolean
  /** The lease as stored afterwards: this holder's, or whoever holds it and until when. */
  readonly lease: Lease
}

/** Who must still hold which lease at `now` for a write to commit. */
export interface LeaseClaim {
  /** See {@link Lease.name}. */
  readonly name: string
  /** See {@link Lease.holder}. */
  readonly holder: string
  /** ISO 8601: the lease must not have expired at this time. */
  readonly now: string
}

/** Thrown by a write whose {@link LeaseClaim} no longer holds (expired, or taken by another instance); nothing was written. */
export class LeaseLostError extends Error {
  /** Always `LEASE_LOST`. */
  readonly code = 'LEASE_LOST'
  constructor(name: string) {
    super(`lease ${name}: no longer held by this instance; nothing written`)
    this.name = 'LeaseLostError'
  }
}

/** When a lease taken at `now` for `ttlMs` expires. */
export const leaseExpiresAt = (now: string, ttlMs: number): string => new Date(Date.parse(now) + ttlMs).toISOString()

/** Expired at `now`: at its `expiresAt` itself, as the take (`takeLease` in ledger-sql.ts) sees it too. */
export const leaseExpired = (lease: Lease, now: string): boolean => lease.expiresAt <= now

/** Whether `claim` still holds `lease` (as stored, or none). */
export const holdsLease = (lease: Lease | undefined, claim: LeaseClaim): boolean =>
  lease !== undefined && lease.holder === claim.holder && !leaseExpired(lease, claim.now)

/** Throws {@link LeaseLostError} unless `claim` holds its lease; the read holds the row until the commit. */
export function* checkLease(claim: LeaseClaim): LedgerRule<void> {
  const row = yield* first<LeaseRow>('leaseForCommit', [claim.name])
  if (!holdsLease(row && leaseOf(row), claim)) throw new LeaseLostError(claim.name)
}

/** Takes or renews the lease in one statement, then reads it: who holds it now, and until when. */
export function* acquireLease(name: string, holder: string, ttlMs: number, now: string): LedgerRule<LeaseAnswer> {
  const taken = yield* changes('takeLease', [name, holder, leaseExpiresAt(now, ttlMs), now])
  const lease = leaseOf((yield* first<LeaseRow>('readLease', [name]))!)
  return { acquired: taken === 1 && lease.holder === holder, lease }
}
