/** base64 (or base64url) of UTF-8 JSON, both ways: the 3-D Secure tokens and results. */
export function decodeBase64Json(text: string): Record<string, unknown> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'))
  const value: unknown = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))))
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('token: not a JSON object')
  return value as Record<string, unknown>
}

export function encodeBase64Json(value: unknown, url = false): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value))
  const text = btoa(String.fromCharCode(...bytes))
  return url ? text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '') : text
}
