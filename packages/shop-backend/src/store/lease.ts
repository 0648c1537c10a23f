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
