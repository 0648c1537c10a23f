export { createGroupCommit } from './create-group-commit.js'
export type { GroupCommit, GroupCommitOptions } from './group-commit-types.js'
export { WalSyncFailedError } from './wal-sync-failed-error.js'
export { walPathOf } from './wal-path-of.js'
