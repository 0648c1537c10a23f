import type { Db } from './db.js'

/** Replay nonces of signed requests, on their own connection (see openNonceConnection). */
export type NonceStore = ReturnType<typeof createNonceStore>

/** Prepares every statement once, when the sandbox starts. */
export function createNonceStore(db: Db) {
  const removeExpired = db.prepare('DELETE FROM nonces WHERE expires_at < ?')
  const insertIfNew = db.prepare('INSERT OR IGNORE INTO nonces (shop_id, nonce, expires_at) VALUES (?, ?, ?)')
  const spend = db.transaction((shopId: string, nonce: string, expiresAt: number, now: number): boolean => {
    removeExpired.run(now)
    return insertIfNew.run(shopId, nonce, expiresAt).changes > 0
  })
  return {
    /**
     * Spends a shop's nonce until `expiresAt`, removing the expired ones first (Unix seconds); false
     * when the nonce was already spent.
     */
    spend(shopId: string, nonce: string, expiresAt: number, now: number): boolean {
      return spend(shopId, nonce, expiresAt, now)
    },
  }
}
