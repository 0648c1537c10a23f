import type { CardDecryptor } from '@card-jwe/testkit/decryptor'
import type { AccountStore } from './account-store.js'
import type { AnswerStore } from './answer-store.js'
import type { Db } from './db.js'
import type { KeysInUse } from './keys-in-use.js'
import type { MerchantStore } from './merchant-store.js'
import type { NonceStore } from './nonce-store.js'
import type { OrderTermsStore } from './order-terms-store.js'
import type { PaymentStore } from './payment-store.js'
import type { ShopStore } from './shop-store.js'

/** What every handler may use. */
export interface SandboxContext {
  /** For transactions; the statements are in the stores below, prepared once at start-up. */
  readonly db: Db
  readonly shops: ShopStore
  readonly accounts: AccountStore
  /** First answers by idempotency key for the calls whose rows keep none (idempotency.ts). */
  readonly answers: AnswerStore
  readonly merchants: MerchantStore
  readonly payments: PaymentStore
  /** A payment's lines and capture timing (`payment_orders`). */
  readonly orderTerms: OrderTermsStore
  /** On a second connection to the same database (see openNonceConnection). */
  readonly nonces: NonceStore
  /** Durable writes on `db` grouped into one commit with others (@card-jwe/sqlite-group-commit); for the hot payment path. */
  readonly commit: <T>(write: () => T) => Promise<T>
  /** Settles once every write on `db` so far is on disk (the WAL synced off the event loop); every answer waits for it. */
  readonly syncWritten: () => Promise<void>
  readonly decryptor: CardDecryptor
  /** Payment keys whose first request is still being made: a second one under them is 409. */
  readonly keysInUse: KeysInUse
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
