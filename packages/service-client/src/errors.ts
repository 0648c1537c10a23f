/**
 * The service's error envelope is "not shown" in the spec; the sandbox answers, and this client
 * reads, the widely used checkout APIs' shape: `{status, errorCode, message, errorType}`.
 */
export interface ServiceErrorBody {
  readonly status: number
  readonly errorCode: string
  readonly message: string
  readonly errorType: string
}

export class ServiceError extends Error {
  override readonly name = 'ServiceError'
  readonly status: number
  readonly errorCode: string
  readonly errorType: string

  constructor(body: ServiceErrorBody) {
    super(body.message)
    this.status = body.status
    this.errorCode = body.errorCode
    this.errorType = body.errorType
  }
}
