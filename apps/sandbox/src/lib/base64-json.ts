/** base64 of UTF-8 JSON, as the widely used checkout APIs wrap 3-D Secure tokens and results. */
export function toBase64Json(value: unknown, url = false): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString(url ? 'base64url' : 'base64')
}

/** Reads base64 or base64url JSON; undefined for anything else. */
export function fromBase64Json(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string' || text.length > 20_000 || !/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return undefined
  try {
    const value: unknown = JSON.parse(Buffer.from(text, text.includes('-') || text.includes('_') ? 'base64url' : 'base64').toString('utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  } catch {
    return undefined
  }
}
