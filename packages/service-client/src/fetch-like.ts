/** What the client sends: a subset of fetch's `RequestInit`. */
export interface FetchLikeInit {
  /** Upper-case HTTP method. */
  readonly method: string
  /** Lower-case names; the signature headers, the content type and an idempotency key where the call has one. */
  readonly headers: Record<string, string>
  /** The JSON text exactly as signed; absent for a GET. */
  readonly body?: string
  /** Aborted when the attempt's time is up. */
  readonly signal: AbortSignal
  /** The service never redirects; a redirect is an answer like any other. */
  readonly redirect: 'manual'
}

/** What the client reads of an answer: a subset of fetch's `Response`. */
export interface FetchLikeAnswer {
  /** The HTTP status. */
  readonly status: number
  /** The answer's headers (the client reads `retry-after`). */
  readonly headers: {
    /** A header's value, or null when the answer has none. */
    get(name: string): string | null
  }
  /** The whole body as text. */
  text(): Promise<string>
  /** The body stream, cancelled when an attempt gives up on a body that stalls. */
  readonly body?: {
    /** Stops reading and lets the connection go. */
    cancel(): Promise<void>
  } | null
}

/** `globalThis.fetch` fits; so does any function that answers these calls (a wrapper, a test double). */
export type FetchLike = (url: string, init: FetchLikeInit) => Promise<FetchLikeAnswer>
