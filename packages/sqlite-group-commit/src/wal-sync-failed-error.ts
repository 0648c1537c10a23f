/**
 * What every call gets after a WAL sync failed: Linux may have dropped the WAL's pages and says so
 * only once, so a later sync could succeed over a WAL that lost rows already acknowledged.
 */
export class WalSyncFailedError extends Error {
  /** Stable: `WAL_SYNC_FAILED`. */
  readonly code = 'WAL_SYNC_FAILED'
  /** The OS's code for the sync that failed (`EIO`, `ENOSPC`...). */
  readonly syncCode: string

  constructor(syncCode: string) {
    super(`sqlite store: a WAL sync failed (${syncCode}); the store is stopped: check the disk, then restart the machine`)
    this.name = 'WalSyncFailedError'
    this.syncCode = syncCode
  }
}
