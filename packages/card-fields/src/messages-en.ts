import { BRAND_NAMES, type CardFieldMessages } from './messages.js'

/** English, the default. */
export const MESSAGES_EN: CardFieldMessages = Object.freeze<CardFieldMessages>({
  fieldNames: {
    number: 'Card number',
    expiry: 'Expiry date',
    expiryMonth: 'Expiry month',
    expiryYear: 'Expiry year',
    securityCode: 'Security code',
    holderName: 'Name on card',
  },
  errors: {
    number: {
      required: 'Enter the card number.',
      characters: 'Use digits only.',
      brand: 'This card type is not accepted.',
      luhn: 'Check the card number: it is not valid.',
      length: 'The card number is incomplete.',
      invalid: 'Check the card number.',
    },
    expiry: {
      required: 'Enter the expiry date as MM/YY.',
      characters: 'Use digits only, as MM/YY.',
      format: 'Enter the year as YY.',
      month: 'The month must be 01 to 12.',
      expired: 'This card has expired.',
      'too-far-ahead': 'Check the expiry year.',
      invalid: 'Enter the expiry date as MM/YY.',
    },
    expiryMonth: {
      required: 'Enter the expiry month.',
      characters: 'Use digits only.',
      month: 'The month must be 01 to 12.',
      invalid: 'Check the expiry month.',
    },
    expiryYear: {
      required: 'Enter the expiry year.',
      characters: 'Use digits only.',
      format: 'Enter the year as YY or YYYY.',
      expired: 'This card has expired.',
      'too-far-ahead': 'Check the expiry year.',
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
  securityCodeLabel: (code) => (code ? `Security code (${code.name}, ${code.size} digits)` : code === null ? 'No security code needed' : 'Security code'),
  brandRecognised: (brand) => `${BRAND_NAMES[brand]} card`,
})
