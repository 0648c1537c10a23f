/** What the client sends: a subset of fetch's `RequestInit`. */
export interface FetchLikeInit {
  readonly method: string
  readonly headers: Record<string, string>
  readonly body?: string
  readonly signal: AbortSignal
  readonly redirect: 'manual'
}

/** What the client reads of an answer: a subset of fetch's `Response`. */
export interface FetchLikeAnswer {
  readonly status: number
  readonly headers: { get(name: string): string | null }
  text(): Promise<string>
  readonly body?: { cancel(): Promise<void> } | null
}

/** `globalThis.fetch` fits; so does any function that answers these calls (a wrapper, a test double). */
export type FetchLike = (url: string, init: FetchLikeInit) => Promise<FetchLikeAnswer>
