/**
 * The service's error envelope is "not shown" in the spec; the sandbox answers, and this client
 * reads, the widely used checkout APIs' shape: `{status, errorCode, message, errorType}`.
 */
export interface ServiceErrorBody {
  /** The HTTP status. */
  readonly status: number
  /** A stable code to branch on: the service's, or the client's `INVALID_RESPONSE` and `HTTP_ERROR`. */
  readonly errorCode: string
  /** For the developer; for card data, one of the service's three messages. */
  readonly message: string
  /** "validation", "security", "configuration" or "internal"; "client" when the client found the answer wrong. */
  readonly errorType: string
}

/** What the client throws for an error answer, or an answer that breaks its schema; network failures stay `TypeError`s. */
export class ServiceError extends Error {
  /** Always "ServiceError", also after bundling renames the class. */
  override readonly name = 'ServiceError'
  /** The HTTP status of the answer. */
  readonly status: number
  /** See {@link ServiceErrorBody.errorCode}. */
  readonly errorCode: string
  /** See {@link ServiceErrorBody.errorType}. */
  readonly errorType: string

  constructor(body: ServiceErrorBody) {
    super(body.message)
    this.status = body.status
    this.errorCode = body.errorCode
    this.errorType = body.errorType
  }
}
