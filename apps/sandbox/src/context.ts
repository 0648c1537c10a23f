import type { CardDecryptor } from '@card-jwe/testkit/decryptor'
import type { Db } from './db.js'
import type { GroupCommit } from './group-commit.js'

/** What every handler may use. */
export interface SandboxContext {
  readonly db: Db
  /** The same database, for replay nonces only (see openNonceConnection). */
  readonly nonces: Db
  /** Durable writes on `db` grouped into one commit with others (group-commit.ts); for the hot payment path. */
  readonly commit: GroupCommit
  readonly decryptor: CardDecryptor
  /** The sandbox's own origin, for the URLs it hands out (3-D Secure pages, bank page). */
  readonly baseUrl: string
  readonly now: () => Date
  /** One line per request and per refusal: method, path, status, error code. Never a body. */
  readonly log: (line: string) => void
}

export interface ShopRow {
  readonly shop_id: string
  readonly base_url: string
  readonly basic_key: string
  readonly basic_secret: string
  readonly service_secret: string
  readonly client_key: string
  /** The merchant account (backoffice user) the shop connected with a verification code. */
  readonly account_id: string | null
  /** The current contractor (spec: Endpoints rule 3). */
  readonly contractor_id: string | null
}
