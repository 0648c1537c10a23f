import type { createGroupCommit } from './create-group-commit.js'
import type { walPathOf } from './wal-path-of.js'

/** Options of {@link createGroupCommit}. */
export interface GroupCommitOptions {
  /**
   * The database's `-wal` file, synced after each commit: {@link walPathOf} finds it. Opened at once,
   * so put the database in WAL mode and run a statement first (the file appears with the first
   * transaction). Leave it out only when no sync of ours is needed (`:memory:`, or `synchronous=FULL`,
   * whose COMMIT waits for the disk): commits then settle as soon as they are made.
   */
  readonly walPath?: string | undefined
  /** Told of a failed group or sync, by the error's code only. Default: nothing. */
  readonly log?: (line: string) => void
}

/** The group commit of one connection. */
export interface GroupCommit {
  /** Runs `run` (several statements: its own savepoint) in the next group; settles once that commit is on disk. */
  write<T>(run: () => T, single?: boolean): Promise<T>
  /** A write of one statement (its reads aside): no savepoint needed. */
  writeOne<T>(run: () => T): Promise<T>
  /**
   * Runs `run` once every commit made so far is on disk; answers once every commit it saw is on disk
   * too, written through the group or not. A sync that fails rejects the reads waiting on it.
   */
  read<T>(run: () => T): Promise<T>
  /**
   * Settles once everything committed on this connection so far is on disk, written through the
   * group or not (one WAL holds it all): for a connection that also writes on its own, before it answers.
   */
  syncWritten(): Promise<void>
  /**
   * Refuses every call from now on, commits what is queued and waits for it to be on disk, with what
   * was written outside the group; closes the WAL's handles once no sync uses them.
   */
  close(): Promise<void>
}
