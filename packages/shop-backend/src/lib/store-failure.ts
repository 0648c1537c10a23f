import { ShopBackendError } from '../errors.js'
import type { Log } from '../telemetry/log.js'

/** A store's error by its code only (a message can quote a row's values), and whether it means "not now". */
export interface StoreFailure {
  /**
   * PostgreSQL's SQLSTATE (`57P01`), SQLite's code (`SQLITE_BUSY`), the OS's (`ECONNREFUSED`), another
   * stable code, pg's words for a lost connection, else the error's name.
   */
  readonly code: string
  /** The database cannot be reached now (down, restarting, busy past its timeout): the caller may try again. */
  readonly unavailable: boolean
}

// A code, never a message: SQLSTATE, SQLite's, the OS's, or a library's own stable code.
const CODE = /^[A-Za-z0-9_]{1,64}$/
// SQLSTATE class 08 (connection exception), 57P01-03 (shutting down, crashed, starting), 53300 (too many connections).
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/
const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])
// pg's own fixed words for a connection lost or never made, which it gives no code.
const PG_CONNECTION_LOST: Readonly<Record<string, string>> = {
  'Connection terminated unexpectedly': 'connection terminated',
  'Connection terminated': 'connection terminated',
  'Client has encountered a connection error and is not queryable': 'connection terminated',
  'Connection terminated due to connection timeout': 'connection timeout',
  'timeout exceeded when trying to connect': 'connection timeout',
}

/** What went wrong in a store, for a log line and for the answer. */
export function storeFailureOf(error: unknown): StoreFailure {
  const { code, message, name } = (error ?? {}) as { code?: unknown; message?: unknown; name?: unknown }
  if (typeof code === 'string' && CODE.test(code))
    return { code, unavailable: UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_CODES.has(code) }
  const lost = typeof message === 'string' ? PG_CONNECTION_LOST[message] : undefined
  if (lost !== undefined) return { code: lost, unavailable: true }
  return { code: typeof name === 'string' ? name : 'Error', unavailable: false }
}

/**
 * 503 `STORE_UNAVAILABLE` when `error` is the store out of reach (said in the log, by its code, for
 * `what`): try again, nothing was half-written. Undefined for any other error.
 */
export function storeUnavailableOf(error: unknown, log: Log, what: string): ShopBackendError | undefined {
  if (error instanceof ShopBackendError) return undefined
  const failure = storeFailureOf(error)
  if (!failure.unavailable) return undefined
  log(`${what}: the ledger's store could not be reached (${failure.code})`, 'error', {
    component: 'store',
    code: failure.code,
    operation: what,
  })
  return new ShopBackendError(
    'STORE_UNAVAILABLE',
    "The shop's payment records could not be reached. Try again in a moment; the order is never charged twice.",
  )
}

/** Runs `call`; the store out of reach becomes 503 `STORE_UNAVAILABLE`, any other error goes on as it was. */
export async function unlessStoreUnavailable<T>(call: () => Promise<T>, log: Log, what: string): Promise<T> {
  try {
    return await call()
  } catch (error) {
    throw storeUnavailableOf(error, log, what) ?? error
  }
}
