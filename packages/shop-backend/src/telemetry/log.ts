/** How bad a log entry is, in pino's (and most structured loggers') level names. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

/** A log entry's fields: codes, ids, counts and names; never card data, keys or secrets. */
export type LogFields = Readonly<Record<string, string | number | boolean | undefined>>

/** A structured logger of pino's shape (pino, or any object with these four methods). */
export interface StructuredLogger {
  /** Detail for following one thing through (a lease renewed). */
  debug(fields: object, message: string): void
  /** Something worth knowing that needs no action (the poller's lease changed hands). */
  info(fields: object, message: string): void
  /** Something that went wrong and is retried (a feed record not applied yet, `onOrderChange` threw). */
  warn(fields: object, message: string): void
  /** Something that went wrong for a caller (a 500, the store out of reach). */
  error(fields: object, message: string): void
}

/**
 * The `log` option: a function that takes one line (the level and fields are in its words), or a
 * {@link StructuredLogger} that gets the level and the fields apart.
 */
export type ShopBackendLog = ((line: string) => void) | StructuredLogger

/** The back end's own log: a line, its level (default `info`) and its fields. */
export type Log = (line: string, level?: LogLevel, fields?: LogFields) => void

/**
 * A one-line log over a `log` option, for code that says lines only (the SQLite group commit): a
 * structured logger gets each line at `level` with `fields`.
 */
export function lineLogOf(option: ShopBackendLog | undefined, level: LogLevel, fields: LogFields): (line: string) => void {
  const log = logOf(option)
  return (line) => log(line, level, fields)
}

/**
 * The back end's log over the shop's `log` option. A logger that throws never breaks the operation
 * that logged (a delivery, an answer): what it threw is dropped.
 */
export function logOf(option: ShopBackendLog | undefined): Log {
  if (option === undefined) return () => {}
  if (typeof option === 'function')
    return (line) => {
      try {
        option(line)
      } catch {}
    }
  return (line, level = 'info', fields = {}) => {
    const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined))
    try {
      option[level](defined, line)
    } catch {}
  }
}
