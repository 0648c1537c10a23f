/** One request of the page, as the capture keeps it. */
export interface CapturedRequest {
  /** "GET", "POST", ... */
  readonly method: string
  /** The full URL. */
  readonly url: string
  /** The body as text, when there is one. */
  readonly body?: string
}

// A compact JWE: a JSON header ("eyJ" is the base64url of `{"`) and four more segments (RFC 7516 7.1).
export const COMPACT_JWE = /eyJ[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*){4}/g

/** Percent-decoding (and `+` as space, for form bodies) without throwing on stray `%`. */
function percentDecoded(text: string): string {
  const plussed = text.replace(/\+/g, ' ')
  try {
    return decodeURIComponent(plussed)
  } catch {
    return plussed.replace(/%([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
  }
}

/** A request's text as sent and percent-decoded, JWEs blanked. */
export interface ClearText {
  readonly url: string
  readonly decodedUrl: string
  readonly body: string
  readonly decodedBody: string
}

/**
 * The text of a request that could carry card digits in clear: path, query and body, raw and
 * percent-decoded, with every JWE blanked out (its ciphertext is not "in clear", and base64url
 * holds digits by chance). The origin is left out: a port number is not shopper data.
 */
export function clearTextOf(request: CapturedRequest): ClearText {
  let location = request.url
  try {
    const url = new URL(request.url)
    location = url.pathname + url.search + url.hash
  } catch {
    // Not a URL Playwright would give; scan it as it is.
  }
  const blank = (text: string) => text.replace(COMPACT_JWE, ' ')
  const body = request.body ?? ''
  return { url: blank(location), decodedUrl: blank(percentDecoded(location)), body: blank(body), decodedBody: blank(percentDecoded(body)) }
}

/**
 * "POST /api/payments", for messages: the query is left out, and the path's digits (decoded) shown
 * as `#`, since a finding may be about the very number the path carries (`/c/5555….gif`).
 */
export function describeRequest(request: CapturedRequest): string {
  try {
    return `${request.method} ${percentDecoded(new URL(request.url).pathname).replace(/\d/g, '#')}`
  } catch {
    return request.method
  }
}
