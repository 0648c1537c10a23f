import type { FetchLike } from '../fetch-like.js'

/** Elsewhere than Node (Deno, Bun, workers): the platform's fetch. On Node see `../node/default-fetch.ts`. */
export const defaultFetch = (): FetchLike | undefined => globalThis.fetch
