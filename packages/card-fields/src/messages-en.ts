import type { LocaleMessages } from './lib/locale-messages.js'
import type { CardFieldMessages } from './messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Enter the expiry date as MM/YY.',
  characters: 'Use digits only.',
  format: 'Enter the year as YY.',
  month: 'The month must be 01 to 12.',
  expired: 'This card has expired.',
  'too-far-ahead': 'Check the expiry year.',
  invalid: 'Enter the expiry date as MM/YY.',
}

/** English, the default. */
export const MESSAGES_EN: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Enter the card number.',
      characters: 'Use digits only.',
      brand: 'This card type is not accepted.',
      luhn: 'Check the card number.',
      length: 'The card number is incomplete.',
      invalid: 'Check the card number.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Enter the expiry month.',
      invalid: 'Check the expiry month.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Enter the expiry year.',
      format: 'Enter the year as YY or YYYY.',
      invalid: 'Check the expiry year.',
    },
    securityCode: {
      required: 'Enter the security code.',
      characters: 'Use digits only.',
      length: 'The security code is incomplete.',
      invalid: 'Check the security code.',
    },
    holderName: {
      characters: 'Use no digits in the name.',
      length: 'The name is too long.',
      invalid: 'Check the name.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Security code (${code.name}, ${code.size} digits)` : code === null ? 'No security code needed' : 'Security code',
})
