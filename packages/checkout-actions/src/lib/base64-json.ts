/** base64 (or base64url) of UTF-8 JSON, both ways: the 3-D Secure tokens and results. */
export function decodeBase64Json(text: string): Record<string, unknown> | null {
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
    const value: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
  } catch {
    return null
  }
}

export function encodeBase64Json(value: unknown, url = false): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  const text = btoa(binary)
  return url ? text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : text
}
