/**
 * The admin's refund by line: one unit of a chosen line of the order, sent as the back end's refund
 * route takes it (`lineItems: [{id, quantity}]`); the back end prices it as the payment was sent.
 */
import { formatAmount } from './api.js'

/** One line of an order as the admin table lists it. */
export interface OrderLine {
  id: string
  description: string
  quantity: number
  amountIncludingTax: number
}

/** A choice of the order's lines, labelled for the order; its value is the chosen line's id. */
export function lineChoice(reference: string, currency: string, lines: readonly OrderLine[]): HTMLSelectElement {
  const select = document.createElement('select')
  select.className = 'refund-line'
  select.setAttribute('aria-label', `Line to refund for ${reference}`)
  for (const line of lines) {
    const price = formatAmount({ currency, value: line.amountIncludingTax })
    select.append(Object.assign(document.createElement('option'), { value: line.id, textContent: `${line.description} (${price})` }))
  }
  return select
}

/** The refund route's body for one unit of the chosen line. */
export const oneOfLine = (select: HTMLSelectElement) => ({ lineItems: [{ id: select.value, quantity: 1 }] })
