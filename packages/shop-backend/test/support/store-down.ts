import type { LedgerStore } from '../../src/store/ledger-store.js'

/** The store's error when its database cannot be reached: a code, and a message that must not leak. */
export const connectionRefused = () =>
  Object.assign(new Error('connect ECONNREFUSED db.internal:5432 password=hunter2'), { code: 'ECONNREFUSED' })

/** A `wrapStore` whose `method` rejects as a database out of reach while `down()` says so. */
export function downWhile(down: () => boolean, method: 'getSetting' | 'insertAttempt'): (store: LedgerStore) => LedgerStore {
  return (store) => {
    const real = store[method].bind(store) as (...args: unknown[]) => Promise<unknown>
    return { ...store, [method]: (...args: unknown[]) => (down() ? Promise.reject(connectionRefused()) : real(...args)) } as LedgerStore
  }
}
