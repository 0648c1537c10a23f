/** The shop's admin page: the account set-up wizard; orders and their states, capture (full or partial), refund, cancel. */
import { api, formatAmount } from './api.js'
import { startSetupWizard } from './setup-wizard.js'
import './styles.css'

interface AdminOrder {
  id: number
  reference: string
  amount: { currency: string; value: number }
  status: string
  captured: number
  refunded: number
  pspReference: string | null
}

const status = document.querySelector<HTMLElement>('#status')!

function button(label: string, onClick: () => Promise<void>): HTMLButtonElement {
  const element = document.createElement('button')
  element.type = 'button'
  element.textContent = label
  element.addEventListener('click', () => {
    element.disabled = true
    void onClick()
      .catch((error: unknown) => (status.textContent = (error as Error).message))
      .finally(() => (element.disabled = false))
  })
  return element
}

async function modify(order: AdminOrder, action: 'capture' | 'refund' | 'cancel', input?: HTMLInputElement): Promise<void> {
  const value = input?.value ? Math.round(Number(input.value) * 100) : undefined
  // One key per click, so a retried request cannot capture or refund twice.
  await api(`/api/admin/orders/${order.id}/${action}`, value ? { value } : {}, { 'idempotency-key': crypto.randomUUID() })
  status.textContent = `${action} requested for ${order.reference}; the state follows when the service reports it.`
}

async function render(): Promise<void> {
  const orders = await api<AdminOrder[]>('/api/admin/orders')
  const body = document.querySelector('#orders')!
  body.replaceChildren(
    ...orders.map((order) => {
      const row = document.createElement('tr')
      row.dataset.orderId = String(order.id)
      const cell = (text: string) => Object.assign(document.createElement('td'), { textContent: text })
      const amountInput = Object.assign(document.createElement('input'), { type: 'number', step: '0.01', min: '0.01', placeholder: 'amount', className: 'amount' })
      amountInput.setAttribute('aria-label', `Amount for ${order.reference} (empty: all)`)
      const actions = document.createElement('td')
      if (order.pspReference) {
        actions.append(
          amountInput,
          button('Capture', () => modify(order, 'capture', amountInput)),
          button('Refund', () => modify(order, 'refund', amountInput)),
          button('Cancel', () => modify(order, 'cancel')),
        )
      }
      const money = (value: number) => formatAmount({ currency: order.amount.currency, value })
      row.append(cell(order.reference), cell(formatAmount(order.amount)), cell(order.status), cell(money(order.captured)), cell(money(order.refunded)), actions)
      return row
    }),
  )
}

document.querySelector('#refresh')!.addEventListener('click', () => {
  void api<{ applied: number }>('/api/admin/poll', {})
    .then(({ applied }) => {
      status.textContent = `${applied} change(s) from the payment service applied.`
      return render()
    })
    .catch((error: unknown) => (status.textContent = (error as Error).message))
})
void Promise.all([startSetupWizard(), render()])
  .catch((error: unknown) => (status.textContent = (error as Error).message))
  .finally(() => (document.body.dataset.ready = 'true'))
