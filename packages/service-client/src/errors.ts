/**
 * The service's error envelope is "not shown" in the spec; the sandbox answers, and this client
 * reads, the widely used checkout APIs' shape: `{status, errorCode, message, errorType}`.
 */
export interface ServiceErrorBody {
  /** The HTTP status. */
  readonly status: number
  /** A stable code to branch on: the service's, or the client's `INVALID_RESPONSE` and `HTTP_ERROR`. */
  readonly errorCode: string
  /** For the developer, never the page: a card refusal's text could echo what the shopper typed. */
  readonly message: string
  /** "validation", "security", "configuration" or "internal"; "client" when the client found the answer wrong. */
  readonly errorType: string
}

/** How a call went: what a shop needs to repeat it later under the same key. */
export interface CallRecord {
  /** Requests sent, the first one included. */
  readonly attempts: number
  /** The `Idempotency-Key` every attempt carried (the caller's or a generated one); none on a GET. */
  readonly idempotencyKey: string | undefined
  /**
   * A try before the last got no answer (or a gateway's 502 or 504): the service may have acted on it,
   * so a refusal of a later try does not say that nothing was done. Absent: false.
   */
  readonly unanswered?: boolean
}

// Symbol.for: the same symbol in every copy of the package, so a shop with two copies installed
// (its own and the back end's) still recognises either's errors.
const SERVICE_ERROR = Symbol.for('@card-jwe/service-client.ServiceError')
const UNREACHABLE_ERROR = Symbol.for('@card-jwe/service-client.ServiceUnreachableError')

/**
 * The service answered with an error status, or with an answer that breaks its schema
 * (`code` `INVALID_RESPONSE`; without the service's envelope, `HTTP_ERROR`).
 */
export class ServiceError extends Error {
  /** Always "ServiceError", also after bundling renames the class. */
  override readonly name = 'ServiceError'
  /** `instanceof` holds across two installed copies of this package (see `hasInstance`). */
  readonly [SERVICE_ERROR] = true
  /** True for an instance made by any copy of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && SERVICE_ERROR in value
  }
  /** The HTTP status of the answer. */
  readonly status: number
  /** The envelope's `errorCode` ({@link ServiceErrorBody.errorCode}): the same property name as every error of ours. */
  readonly code: string
  /** See {@link ServiceErrorBody.errorType}. */
  readonly errorType: string
  /** See {@link CallRecord.attempts}. */
  readonly attempts: number
  /** See {@link CallRecord.idempotencyKey}. */
  readonly idempotencyKey: string | undefined
  /** See {@link CallRecord.unanswered}. */
  readonly unanswered: boolean

  constructor(body: ServiceErrorBody, call: CallRecord = { attempts: 1, idempotencyKey: undefined }) {
    super(body.message)
    this.status = body.status
    this.code = body.errorCode
    this.errorType = body.errorType
    this.attempts = call.attempts
    this.idempotencyKey = call.idempotencyKey
    this.unanswered = call.unanswered ?? false
  }
}

/**
 * `SERVICE_UNREACHABLE`: no answer at all (connection refused or reset, name not found) on the last
 * attempt. `SERVICE_TIMEOUT`: the last attempt, or the call's deadline, ran out before a whole answer
 * arrived.
 */
export type ServiceUnreachableCode = 'SERVICE_UNREACHABLE' | 'SERVICE_TIMEOUT'

/**
 * No answer from the service within the call's deadline, retries included. Whether it acted is
 * unknown: repeat the call later with the same `idempotencyKey` (a money call then gets the first
 * answer, never a second charge), or learn the outcome from updated-payments.
 */
export class ServiceUnreachableError extends Error {
  /** Always "ServiceUnreachableError", also after bundling renames the class. */
  override readonly name = 'ServiceUnreachableError'
  /** `instanceof` holds across two installed copies of this package. */
  readonly [UNREACHABLE_ERROR] = true
  /** True for an instance made by any copy of this package. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && UNREACHABLE_ERROR in value
  }
  /** See {@link ServiceUnreachableCode}. */
  readonly code: ServiceUnreachableCode
  /** See {@link CallRecord.attempts}. */
  readonly attempts: number
  /** See {@link CallRecord.idempotencyKey}. */
  readonly idempotencyKey: string | undefined
  /** "METHOD path-template" of the call, e.g. "POST /shopplatform/processor/stores/{store_id}/payments". */
  readonly endpoint: string

  constructor(code: ServiceUnreachableCode, endpoint: string, call: CallRecord, options?: { readonly cause?: unknown }) {
    const what = code === 'SERVICE_TIMEOUT' ? 'no whole answer in time' : 'the service could not be reached'
    super(`${endpoint}: ${what} after ${call.attempts} attempt${call.attempts === 1 ? '' : 's'}`, options)
    this.code = code
    this.endpoint = endpoint
    this.attempts = call.attempts
    this.idempotencyKey = call.idempotencyKey
  }
}
