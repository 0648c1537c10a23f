/** Longest part of a path that goes into a log line. */
export const MAX_LOGGED_PATH_LENGTH = 200

/**
 * A request path as it may appear in a log line. Clients put anything into paths, card numbers
 * included, so: percent-decoded (an encoded number is still a number), every run of 12 or more
 * digits (with spaces or dashes between them: card numbers are 12 to 19 digits) replaced by
 * `[digits]`, anything outside printable ASCII replaced by `?` (no forged log lines through %0A),
 * and cut to MAX_LOGGED_PATH_LENGTH characters.
 */
export function redactPathForLog(path: string): string {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // malformed escapes: redact the raw text
  }
  const redacted = decoded.replace(/\d(?:[ -]?\d){11,}/g, '[digits]').replace(/[^\x20-\x7e]/g, '?')
  return redacted.length > MAX_LOGGED_PATH_LENGTH ? `${redacted.slice(0, MAX_LOGGED_PATH_LENGTH)}…` : redacted
}
