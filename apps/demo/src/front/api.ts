/** The shop backend's API, as the page uses it. */
export interface PublicOrder {
  readonly id: number
  readonly reference: string
  readonly amount: { readonly currency: string; readonly value: number }
  readonly status: string
  /** Made by a signed-in shopper: the shop may save the card and offers their saved cards. */
  readonly signedIn: boolean
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Field problems `{path, rule}` when the shop refused a body. */
    readonly details?: ReadonlyArray<{ path: string; rule: string }>,
  ) {
    super(message)
  }
}

export async function api<T>(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(
    path,
    body === undefined ? {} : { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) },
  )
  const payload = (await response.json().catch(() => ({}))) as { error?: string; message?: string; details?: unknown }
  if (!response.ok) {
    const details = Array.isArray(payload.details) ? (payload.details as Array<{ path: string; rule: string }>) : undefined
    throw new ApiError(response.status, payload.error ?? 'HTTP_ERROR', payload.message ?? `HTTP ${response.status}`, details)
  }
  return payload as T
}

/** The amount in the page's language (its `lang`). */
export function formatAmount(amount: { currency: string; value: number }): string {
  return new Intl.NumberFormat(document.documentElement.lang || 'en', { style: 'currency', currency: amount.currency }).format(
    amount.value / 100,
  )
}
