import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Insira a data de validade como MM/AA.',
  characters: 'Use apenas algarismos.',
  format: 'Insira o ano como AA.',
  month: 'O mês deve estar entre 01 e 12.',
  expired: 'Este cartão expirou.',
  'too-far-ahead': 'Verifique o ano de validade.',
  invalid: 'Insira a data de validade como MM/AA.',
}

/** Portuguese (also for Brazil) (`pt`): card-fields' words for `@card-jwe/card-fields/locales/pt`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Insira o número do cartão.',
      characters: 'Use apenas algarismos.',
      brand: 'Não aceitamos este tipo de cartão.',
      luhn: 'Verifique o número do cartão.',
      length: 'O número do cartão está incompleto.',
      invalid: 'Verifique o número do cartão.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Insira o mês de validade.',
      invalid: 'Verifique o mês de validade.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Insira o ano de validade.',
      format: 'Insira o ano como AA ou AAAA.',
      invalid: 'Verifique o ano de validade.',
    },
    securityCode: {
      required: 'Insira o código de segurança.',
      characters: 'Use apenas algarismos.',
      length: 'O código de segurança está incompleto.',
      invalid: 'Verifique o código de segurança.',
    },
    holderName: {
      characters: 'Não use algarismos no nome.',
      length: 'O nome é longo demais.',
      invalid: 'Verifique o nome.',
    },
  },
  securityCodeLabel: (code) =>
    code
      ? `Código de segurança (${code.name}, ${code.size} algarismos)`
      : code === null
        ? 'Não é necessário código de segurança'
        : 'Código de segurança',
})
