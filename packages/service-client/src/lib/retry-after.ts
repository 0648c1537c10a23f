/**
 * The wait a `Retry-After` header asks for, in milliseconds: delay-seconds or an HTTP-date
 * (RFC 9110, 10.2.3). Undefined when absent or unreadable, so the backoff decides instead.
 */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined
  const text = value.trim()
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000
  // An HTTP-date names a weekday and "GMT"; Date.parse alone would also take "5" or "2025".
  if (!/^[A-Za-z]{3}, .+ GMT$/.test(text)) return undefined
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs)
}
