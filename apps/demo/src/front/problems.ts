/**
 * The admin's payment problems, from the back end's admin routes: payments whose outcome stayed open
 * (shown, with nothing to press: only the service's outcome settles them), then captures, refunds and
 * cancels the payment service never answered, feed records the shop could not apply and order changes
 * its order table has not taken yet, each with Retry (now) and Dismiss (accepted as it is, kept for
 * the record).
 */
import { api, ApiError, formatAmount } from './api.js'
import { forgetIfSame } from './unanswered-requests.js'

/** A payment whose outcome has been open for 15 minutes: nobody knows yet whether money was taken. */
interface OpenPayment {
  orderId: string
  attempt: number
  state: 'created' | 'pending' | 'confirming'
  methodType: string
  since: string
}

/** A capture, refund or cancel unanswered for 15 minutes: it may or may not have moved money. */
interface OpenRequest {
  orderId: string
  kind: 'capture' | 'refund' | 'cancel'
  requestId: string
  amount?: { currency: string; value: number }
  since: string
  lastRefusal?: string
}

interface PollProblem {
  sequence: number
  reason: string
  tries: number
  nextTryAt: string
  record: { status?: string; orderId?: string }
}

interface Delivery {
  id: number
  tries: number
  nextTryAt: string
  change: { orderId: string; state: string }
}

interface Problems {
  openPayments: OpenPayment[]
  openModifications: OpenRequest[]
  pollProblems: PollProblem[]
  deliveries: Delivery[]
}

/** The poller's reasons in words. */
const REASONS: Readonly<Record<string, string>> = {
  UNKNOWN_ORDER: 'No order of this shop has this id',
  NO_ORDER_ID: 'The update names no order',
  NO_ATTEMPT: 'The shop never sent this payment',
  AMBIGUOUS_ATTEMPT: "Two of the order's payments are still open and the update does not say which it is about",
  UNKNOWN_STATUS: 'The payment service sent a status the shop does not know',
  AMOUNT_MISMATCH: "The amount differs from the order's",
  CONFLICT: 'Another update changed the payment at the same moment',
  STORE_ERROR: "The shop's payment records could not be read",
  UNREADABLE_RECORD: 'The update could not be read',
  PAID_AFTER_FAILURE: 'The payment service took a payment the shop holds as refused: refund it, or ship',
  PAID_TWICE: 'The payment service took a second payment for an order already paid: refund one of the two',
}

/** A payment method's type as the admin knows it. */
const METHOD_NAMES: Readonly<Record<string, string>> = { scheme: 'card', ideal: 'iDEAL', klarna: 'Klarna' }

/** Why an open payment is listed, by its state: what is known and what settles it. */
function openPaymentWhy(p: OpenPayment): string {
  const method = METHOD_NAMES[p.methodType] ?? p.methodType
  const since = time(p.since)
  if (p.state === 'confirming')
    return `The shopper finished the bank's step; the payment service has not confirmed this ${method} payment since ${since}`
  return (
    `No outcome from the payment service for this ${method} payment since ${since}: money may have been taken. ` +
    "Refresh from the payment service, or the shopper's next try, settles it; if it stays, look for it in the payment service's back office"
  )
}

/** Asked before a Dismiss: it cannot be undone, and Retry is the way to settle a request that can be. */
const DISMISS_WARNING =
  'Dismiss ends this request without sending it, for good. Try Retry first: the payment service answers it once. ' +
  "Dismiss only if Retry cannot settle it, then look for the money in the payment service's back office before acting by hand."

const time = (iso: string) => new Date(iso).toLocaleString('en-GB', { dateStyle: 'short', timeStyle: 'medium' })

function row(
  what: string,
  cells: readonly string[],
  /**
   * What the action came to, for the status line; `undefined` when it was not taken (a confirmation
   * declined). None: the row offers no action (only the payment service can settle it).
   */
  act: ((action: 'retry' | 'dismiss') => Promise<string | undefined>) | undefined,
  statusLine: HTMLElement,
  redraw: () => Promise<void>,
): HTMLTableRowElement {
  const tr = document.createElement('tr')
  tr.dataset.problem = what
  for (const text of [what, ...cells]) tr.append(Object.assign(document.createElement('td'), { textContent: text }))
  const actions = document.createElement('td')
  tr.append(actions)
  if (!act) {
    actions.textContent = '—'
    return tr
  }
  const buttons: HTMLButtonElement[] = []
  for (const [action, label] of [
    ['retry', 'Retry'],
    ['dismiss', 'Dismiss'],
  ] as const) {
    const button = Object.assign(document.createElement('button'), { type: 'button', textContent: label })
    button.setAttribute('aria-label', `${label} ${what}`)
    button.addEventListener('click', () => {
      // One action of a row at a time: a Dismiss pressed while its Retry runs would race it.
      for (const b of buttons) b.disabled = true
      void act(action)
        .then((said) => (statusLine.textContent = said ?? statusLine.textContent))
        .catch((error: unknown) => (statusLine.textContent = `${label} ${what}: ${(error as Error).message}`))
        .then(redraw)
        .finally(() => {
          for (const b of buttons) b.disabled = false
        })
    })
    buttons.push(button)
    actions.append(button)
  }
  return tr
}

/**
 * Draws the problems table; `statusLine` hears what each Retry and Dismiss came to, and `redraw`
 * draws the page again after one (a delivered change updates the order). `referenceOf` names an order
 * of the shop by its reference; an id it does not know (another system's order) shows as it is.
 */
export async function renderProblems(
  statusLine: HTMLElement,
  redraw: () => Promise<void>,
  referenceOf: (orderId: string) => string | undefined,
): Promise<void> {
  const problems = await api<Problems>('/api/admin/problems')
  const order = (orderId: string) => referenceOf(orderId) ?? orderId
  const rows = [
    // First: a payment nobody knows the outcome of is the one a shopper may be asking about.
    ...problems.openPayments.map((p) =>
      row(`Payment attempt ${p.attempt}`, [order(p.orderId), openPaymentWhy(p), '—', '—'], undefined, statusLine, redraw),
    ),
    ...problems.openModifications.map((m) => {
      const kind = `${m.kind[0]!.toUpperCase()}${m.kind.slice(1)}`
      const what = `${kind} ${m.requestId}`
      const asked = m.amount ? ` of ${formatAmount(m.amount)}` : ''
      const refused = m.lastRefusal ? ` (last sent again: ${m.lastRefusal})` : ''
      // Answered, or ended (a 4xx): the order's row no longer offers to repeat it; no answer (a 5xx) leaves it.
      const answered = async (call: Promise<unknown>) => {
        try {
          await call
        } catch (error) {
          if (error instanceof ApiError && error.status < 500) forgetIfSame(Number(m.orderId), m.requestId)
          throw error
        }
        forgetIfSame(Number(m.orderId), m.requestId)
      }
      return row(
        what,
        [order(m.orderId), `No answer from the payment service to this ${m.kind}${asked} since ${time(m.since)}${refused}`, '—', '—'],
        async (action) => {
          if (action === 'dismiss') {
            if (!window.confirm(DISMISS_WARNING)) return undefined
            await answered(api(`/api/admin/modifications/${encodeURIComponent(m.requestId)}/dismiss`, {}))
            return (
              `${what} dismissed: this shop does not send it again, but an earlier send may have been taken with its answer lost. ` +
              "Look for it in the payment service's back office before acting by hand."
            )
          }
          // Sent again under its key: the service answers it once, whatever it did with the first.
          await answered(api(`/api/admin/orders/${encodeURIComponent(m.orderId)}/${m.kind}`, { requestId: m.requestId }))
          return `${what} sent again: the payment service received it; its outcome comes with the payment updates.`
        },
        statusLine,
        redraw,
      )
    }),
    ...problems.pollProblems.map((p) => {
      const what = `Payment update ${p.sequence}`
      return row(
        what,
        [p.record.orderId === undefined ? '—' : order(p.record.orderId), REASONS[p.reason] ?? p.reason, String(p.tries), time(p.nextTryAt)],
        async (action) => {
          const answer = await api<{ outcome?: string; reason?: string }>(`/api/admin/problems/${p.sequence}/${action}`, {})
          if (action === 'dismiss') return `${what} dismissed: it is kept for the record and not applied.`
          return answer.outcome === 'not-applied'
            ? `${what} still not applied: ${REASONS[answer.reason ?? ''] ?? answer.reason}.`
            : `${what} applied.`
        },
        statusLine,
        redraw,
      )
    }),
    ...problems.deliveries.map((d) => {
      const what = `Order change ${d.id}`
      return row(
        what,
        [
          order(d.change.orderId),
          d.tries > 0 ? `The order could not be updated (to ${d.change.state})` : `Waiting (to ${d.change.state})`,
          String(d.tries),
          time(d.nextTryAt),
        ],
        async (action) => {
          const answer = await api<{ delivered?: boolean }>(`/api/admin/deliveries/${d.id}/${action}`, {})
          if (action === 'dismiss') return `${what} dismissed: the order is not updated by it.`
          return answer.delivered ? `${what} delivered: the order is up to date.` : `${what} still failing; tried again later.`
        },
        statusLine,
        redraw,
      )
    }),
  ]
  document.querySelector('#problems')!.replaceChildren(...rows)
  document.querySelector<HTMLElement>('#no-problems')!.hidden = rows.length > 0
}
