import { storeFailureOf } from '../lib/store-failure.js'

/** A store's error as a log line names it: its code (SQLSTATE, SQLite's, the OS's), never its message, which may quote a row. */
export const errorCodeOf = (error: unknown): string => storeFailureOf(error).code
