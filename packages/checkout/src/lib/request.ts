/** A refusal of the shop's back end, by its code (`{error}` of its answer), or `OFFLINE`. */
export interface Refusal {
  readonly code: string
}

// A plain object, not a class: the page only ever reads its code, and a class costs bytes.
export const refusal = (code: string): Refusal => ({ code })

/** GET (no body) or POST JSON to the shop's back end; a refusal throws its code, never its message. */
export async function request<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(
    url,
    body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {},
  ).catch(() => {
    throw refusal('OFFLINE')
  })
  const payload = await response.json().catch(() => ({}))
  if (!response.ok) throw refusal(payload.error ?? 'INTERNAL')
  return payload
}
