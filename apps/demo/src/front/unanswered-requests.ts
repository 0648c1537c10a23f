/**
 * An admin request that got no answer (the service could not be reached, the connection dropped)
 * has an unknown outcome: it may have moved money. It is kept per order in localStorage (a reload
 * and the admin's other tabs see it; only this page where the browser refuses storage), and the
 * order's next click sends it again as it was, with its requestId: the back end answers a repeat
 * from its ledger, where a new requestId would be a second refund or renewal. Any answer, a
 * refusal included, settles it.
 */
import { api, ApiError } from './api.js'
import { sharedMemory } from './browser-memory.js'

/** A request as sent: where, its body with its requestId, and the words of the button that sent it. */
export interface AdminRequest {
  readonly path: string
  readonly body: Readonly<Record<string, unknown>> & { readonly requestId: string }
  readonly label: string
}

const keyOf = (orderId: number) => `card-jwe-demo:unanswered:${orderId}`

/** The order's request still without an answer, if any. */
export function unanswered(orderId: number): AdminRequest | undefined {
  const text = sharedMemory.recall(keyOf(orderId))
  return text === null ? undefined : (JSON.parse(text) as AdminRequest)
}

/** A 4xx is an answer (nothing was done, or the ledger said why); a 5xx or no response at all is not. */
const answered = (error: unknown) => error instanceof ApiError && error.status < 500

/**
 * Sends the order's unanswered request again if it has one, else `fresh` under a new requestId
 * (none: only a repeat is wanted, and an order whose request was answered meanwhile sends nothing).
 * It is kept before it goes (a reload while it runs keeps it) and dropped once answered.
 */
export async function sendForOrder<T>(
  orderId: number,
  fresh: { readonly path: string; readonly body: Readonly<Record<string, unknown>>; readonly label: string } | undefined,
): Promise<{ readonly result: T; readonly request: AdminRequest; readonly repeated: boolean } | undefined> {
  const earlier = unanswered(orderId)
  if (!earlier && !fresh) return undefined
  const request: AdminRequest = earlier ?? { ...fresh!, body: { ...fresh!.body, requestId: crypto.randomUUID() } }
  sharedMemory.remember(keyOf(orderId), JSON.stringify(request))
  try {
    const result = await api<T>(request.path, request.body)
    sharedMemory.remember(keyOf(orderId), null)
    return { result, request, repeated: earlier !== undefined }
  } catch (error) {
    if (answered(error)) sharedMemory.remember(keyOf(orderId), null)
    throw error
  }
}

/** The request was answered elsewhere (the problems table's Retry or Dismiss): the order's row no longer repeats it. */
export function forgetIfSame(orderId: number, requestId: string): void {
  if (unanswered(orderId)?.body.requestId === requestId) sharedMemory.remember(keyOf(orderId), null)
}
