import type { Db } from './db.js'

/** A verification code sent, also a mail of the sandbox's inbox. */
export interface VerificationCodeRow {
  readonly id: number
  readonly code: string
  readonly expires_at: number
  readonly attempts: number
  readonly used_at: string | null
  readonly created_at: string
}

/** Merchant accounts (backoffice users) and the verification codes that connect shops to them, with their SQL. */
export type AccountStore = ReturnType<typeof createAccountStore>

/** Prepares every statement once, when the sandbox starts. */
export function createAccountStore(db: Db) {
  const insertAccount = db.prepare('INSERT INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)')
  const insertAccountIfNew = db.prepare('INSERT OR IGNORE INTO accounts (account_id, email, created_at) VALUES (?, ?, ?)')
  const accountByEmail = db.prepare('SELECT account_id FROM accounts WHERE email = ?')
  const recentSends = db.prepare(
    'SELECT count(*) AS n, min(expires_at) AS first FROM verification_codes WHERE shop_id = ? AND email = ? AND expires_at > ?',
  )
  const insertCode = db.prepare('INSERT INTO verification_codes (shop_id, email, code, expires_at, created_at) VALUES (?, ?, ?, ?, ?)')
  const codesSent = db.prepare('SELECT * FROM verification_codes WHERE shop_id = ? AND email = ? ORDER BY id DESC')
  const countWrongAttempt = db.prepare('UPDATE verification_codes SET attempts = attempts + 1 WHERE id = ?')
  const spendCode = db.prepare('UPDATE verification_codes SET used_at = ? WHERE id = ?')
  const inbox = db.prepare('SELECT * FROM verification_codes WHERE email = ? ORDER BY id DESC LIMIT 20')

  return {
    insert(accountId: string, email: string, createdAt: string): void {
      insertAccount.run(accountId, email, createdAt)
    },
    /** The account of this address, made with `accountId` on first use. */
    findOrCreate(accountId: string, email: string, createdAt: string): string {
      insertAccountIfNew.run(accountId, email, createdAt)
      return (accountByEmail.get(email) as { account_id: string }).account_id
    },
    /** Codes this shop sent to this address that are still valid at `now` (Unix seconds), and when the first expires. */
    recentSends(shopId: string, email: string, now: number): { n: number; first: number | null } {
      return recentSends.get(shopId, email, now) as { n: number; first: number | null }
    },
    insertCode(shopId: string, email: string, code: string, expiresAt: number, createdAt: string): void {
      insertCode.run(shopId, email, code, expiresAt, createdAt)
    },
    /** The codes this shop sent to this address, newest first. */
    codesSent(shopId: string, email: string): VerificationCodeRow[] {
      return codesSent.all(shopId, email) as VerificationCodeRow[]
    },
    countWrongAttempt(codeId: number): void {
      countWrongAttempt.run(codeId)
    },
    spendCode(codeId: number, usedAt: string): void {
      spendCode.run(usedAt, codeId)
    },
    /** The last 20 mails to this address, newest first. */
    inbox(email: string): VerificationCodeRow[] {
      return inbox.all(email) as VerificationCodeRow[]
    },
  }
}
