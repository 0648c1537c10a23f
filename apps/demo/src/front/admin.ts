/**
 * The shop's admin page: the account set-up wizard; orders and their states, capture (full or
 * partial), refund, cancel; the payment problems to retry or dismiss. The actions and the problems
 * are the shop back end's admin routes (/api/admin/...). A signed-in shopper's paid order can be
 * renewed on their saved card (renewal.ts).
 */
import { api, formatAmount } from './api.js'
import { ACTION_LABELS, stateOf, type OrderAction } from './order-states.js'
import { renderProblems } from './problems.js'
import { renew, RENEWALS_PATH } from './renewal.js'
import { sendForOrder, unanswered } from './unanswered-requests.js'
import { startSetupWizard } from './setup-wizard.js'
import { startCaptureTiming } from './capture-timing.js'
import { lineChoice, oneOfLine, type OrderLine } from './refund-line.js'
import './styles.css'

interface AdminOrder {
  id: number
  reference: string
  amount: { currency: string; value: number }
  status: string
  captured: number
  refunded: number
  pspReference: string | null
  /** A signed-in shopper's paid order: it can be renewed on their saved card. */
  renewable: boolean
  /** When its money is taken: "at payment", "24 h after payment", "when captured". */
  moneyTaken: string
  /** The order's lines, as its payment sent them: a refund may give one back. */
  lines: OrderLine[]
}

const status = document.querySelector<HTMLElement>('#status')!

function button(order: AdminOrder, label: string, onClick: () => Promise<void>): HTMLButtonElement {
  const element = document.createElement('button')
  element.type = 'button'
  element.textContent = label
  element.setAttribute('aria-label', `${label} ${order.reference}`)
  element.addEventListener('click', () => {
    element.disabled = true
    void onClick()
      .catch(async (error: unknown) => {
        // A refusal names the order it is about; no answer leaves the request to repeat, shown in its row.
        const pending = unanswered(order.id)
        const repeat = pending ? ` No answer yet: "Repeat ${pending.label}" sends the same request again, answered from the ledger.` : ''
        // The row first: the words name its "Repeat" button, which must be there when they are read; an
        // answered refusal (a dismissed request) takes that button away again.
        await renderOrders().catch(() => {})
        status.textContent = `${label} ${order.reference}: ${(error as Error).message}${repeat}`
      })
      .finally(() => (element.disabled = false))
  })
  return element
}

/** Reads the service's changes and redraws the table; returns how many changes applied. */
async function refresh(): Promise<number> {
  const { applied } = await api<{ applied: number }>('/api/admin/poll', {})
  await render()
  return applied
}

type FreshRequest = NonNullable<Parameters<typeof sendForOrder>[1]>

/** A capture, refund or cancel of `order` as the admin asks for it now (the amount typed, the line chosen). */
function modification(order: AdminOrder, action: OrderAction, input?: HTMLInputElement, line?: HTMLSelectElement): FreshRequest {
  const value = input?.value ? Math.round(Number(input.value) * 100) : undefined
  return {
    path: `/api/admin/orders/${order.id}/${action}`,
    // By line the back end prices it: no amount.
    body: line ? oneOfLine(line) : value ? { amount: { currency: order.amount.currency, value } } : {},
    label: ACTION_LABELS[action],
  }
}

/**
 * Sends `fresh` for the order, or its unanswered request again (the back end answers a repeated
 * requestId from its ledger, never a second capture), then shows the state the service reports.
 */
async function modify(order: AdminOrder, fresh: FreshRequest | undefined): Promise<void> {
  const sent = await sendForOrder(order.id, fresh)
  if (!sent) return answeredMeanwhile(order)
  const { request, repeated } = sent
  const asked = `${request.label} requested for ${order.reference}${repeated ? ' (sent again)' : ''}`
  status.textContent = `${asked}.`
  // The table shows the state the service now reports, without waiting for Refresh.
  await refresh()
  const now = document.querySelector<HTMLElement>(`tr[data-order-id="${order.id}"] td[data-state]`)
  status.textContent = `${asked}; now: ${now?.textContent ?? 'see the table'}.`
}

/** A repeat pressed after its request was answered (in another tab, or before a redraw failed): nothing is sent. */
async function answeredMeanwhile(order: AdminOrder): Promise<void> {
  status.textContent = `${order.reference}: that request has been answered; the table shows the order as it is now.`
  await render()
}

/** The one button of an order whose request got no answer: it sends that request again, and only that. */
function repeatButton(order: AdminOrder): HTMLButtonElement | undefined {
  const pending = unanswered(order.id)
  if (!pending) return undefined
  return button(order, `Repeat ${pending.label}`, () =>
    pending.path === RENEWALS_PATH ? renew(order, status, render, () => answeredMeanwhile(order)) : modify(order, undefined),
  )
}

/** The shop's orders, as the admin routes list them. */
const listOrders = () => api<AdminOrder[]>('/api/admin/orders')

async function render(): Promise<void> {
  const orders = listOrders()
  // The problems name an order by its reference, as the orders table does; the back end knows only its id.
  const references = orders.then((all) => new Map(all.map((o) => [String(o.id), o.reference])))
  await Promise.all([renderOrders(orders), references.then((byId) => renderProblems(status, render, (orderId) => byId.get(orderId)))])
}

async function renderOrders(listed = listOrders()): Promise<void> {
  const orders = await listed
  const body = document.querySelector('#orders')!
  body.replaceChildren(
    ...orders.map((order) => {
      const row = document.createElement('tr')
      row.dataset.orderId = String(order.id)
      const cell = (text: string) => Object.assign(document.createElement('td'), { textContent: text })
      const amountInput = Object.assign(document.createElement('input'), {
        type: 'number',
        step: '0.01',
        min: '0.01',
        placeholder: 'amount',
        className: 'amount',
      })
      amountInput.setAttribute('aria-label', `Amount for ${order.reference} (empty: all)`)
      const actions = document.createElement('td')
      const state = stateOf(order.status)
      // Only what the state can take: no Capture on a refund, no Refund before a capture; nothing
      // new while a request of the order has no answer, only that request again.
      const repeat = repeatButton(order)
      if (repeat) actions.append(repeat)
      const offered = order.pspReference && !repeat ? state.actions : []
      if (offered.some((action) => action !== 'cancel')) actions.append(amountInput)
      for (const action of offered)
        actions.append(
          button(order, ACTION_LABELS[action], () =>
            modify(order, modification(order, action, action === 'cancel' ? undefined : amountInput)),
          ),
        )
      // A refund by line: one unit of the chosen line, at the price its payment was sent with.
      if (offered.includes('refund') && order.lines.length > 0) {
        const line = lineChoice(order.reference, order.amount.currency, order.lines)
        actions.append(
          line,
          button(order, 'Refund line', () => modify(order, modification(order, 'refund', undefined, line))),
        )
      }
      if (order.renewable && !repeat) actions.append(button(order, 'Renew subscription', () => renew(order, status, render)))
      const stateCell = cell(state.label)
      stateCell.dataset.state = order.status
      const money = (value: number) => formatAmount({ currency: order.amount.currency, value })
      row.append(
        cell(order.reference),
        cell(formatAmount(order.amount)),
        stateCell,
        cell(money(order.captured)),
        cell(money(order.refunded)),
        cell(order.moneyTaken),
        actions,
      )
      return row
    }),
  )
}

document.querySelector('#refresh')!.addEventListener('click', () => {
  void refresh()
    .then((applied) => (status.textContent = `${applied} change(s) from the payment service applied.`))
    .catch((error: unknown) => (status.textContent = (error as Error).message))
})
void Promise.all([startSetupWizard(), startCaptureTiming(status), render()])
  .catch((error: unknown) => (status.textContent = (error as Error).message))
  .finally(() => (document.body.dataset.ready = 'true'))
