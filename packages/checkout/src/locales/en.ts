import type { CheckoutMessages } from '../messages.js'

/** English (`en`): the flow's words for `@card-jwe/checkout/locales/en`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Processing your payment…',
  fix: 'Please correct the highlighted fields.',
  challenge: 'Your bank asks you to confirm the payment.',
  redirecting: 'Taking you to your bank…',
  paid: 'Payment authorised. Thank you!',
  refused: 'Your card was refused. No money was taken. Try another card.',
  notFinished: 'The payment was not finished. No money was taken. You can try again.',
  pending: 'The payment is being confirmed. Reload this page in a moment; you are never charged twice.',
  unavailable: 'Payment is not possible right now. Try again in a moment; you are never charged twice.',
  offline: 'The shop cannot be reached. Check your connection and try again.',
  card: 'Check your card details and try again.',
  order: 'Your order has changed. Reload the page and check it.',
  ended: 'This payment has already ended. Reload the page to see its result.',
  failed: 'The payment could not be made. No money was taken. Try again.',
})
