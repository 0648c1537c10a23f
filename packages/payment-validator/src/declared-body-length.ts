/**
 * The body's length as its headers declare it, when that bounds the body: a `content-length` and no
 * `transfer-encoding` (the HTTP parser then reads no further). Undefined when the body streams in
 * chunks of unknown total: only reading it can limit it. A server checks this before it reads.
 */
export function declaredBodyLength(headers: Headers): number | undefined {
  if (headers.has('transfer-encoding')) return undefined
  const declared = Number(headers.get('content-length') ?? Number.NaN)
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : undefined
}
