/**
 * Every refusal the sandbox gives: an HTTP status and the error envelope of the widely used
 * checkout APIs, `{status, errorCode, message, errorType}` (the spec does not show one). Messages
 * name fields and rules; card values never appear.
 */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    /** Sent as the envelope's `errorCode`. */
    readonly code: string,
    message: string,
    readonly errorType: 'validation' | 'security' | 'configuration' | 'internal' = 'validation',
    /** Sent as `Retry-After` (a 429's "not before"), so a client does not retry into the same refusal. */
    readonly retryAfterSeconds: number | undefined = undefined,
  ) {
    super(message)
  }

  toBody() {
    return { status: this.status, errorCode: this.code, message: this.message, errorType: this.errorType }
  }
}

export const notFound = (what: string) => new SandboxError(404, 'NOT_FOUND', `${what} not found`)
