/** A refusal of the shop's back end, by its code (`{error}` of its answer), or `OFFLINE`. */
export class Refusal {
  constructor(readonly code: string) {}
}

/** GET (no body) or POST JSON to the shop's back end; a refusal throws its code, never its message. */
export async function request<T>(url: string, body?: unknown): Promise<T> {
  const response = await fetch(
    url,
    body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {},
  ).catch(() => {
    throw new Refusal('OFFLINE')
  })
  const payload = await response.json().catch(() => ({}))
  if (!response.ok) throw new Refusal(payload.error ?? 'INTERNAL')
  return payload
}
