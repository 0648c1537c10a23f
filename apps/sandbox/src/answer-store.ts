import type { Db } from './db.js'

/** The first answer given under an idempotency key, for calls whose rows hold no key of their own. */
export interface KeptAnswer {
  readonly fingerprint: string
  readonly status: number
  readonly answer: string
}

/** Answers kept by idempotency key (table `kept_answers`): store creation, saved-card removal, the back-office user. */
export type AnswerStore = ReturnType<typeof createAnswerStore>

/** Prepares every statement once, when the sandbox starts. */
export function createAnswerStore(db: Db) {
  const find = db.prepare('SELECT fingerprint, status, answer FROM kept_answers WHERE scope = ?')
  const insert = db.prepare(
    'INSERT INTO kept_answers (scope, fingerprint, status, answer, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope) DO NOTHING',
  )
  return {
    answerFor: (scope: string) => find.get(scope) as KeptAnswer | undefined,
    keep(scope: string, answer: KeptAnswer, now: string): void {
      insert.run(scope, answer.fingerprint, answer.status, answer.answer, now)
    },
  }
}
