import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Introduce la fecha de caducidad como MM/AA.',
  characters: 'Usa solo números.',
  format: 'Introduce el año como AA.',
  month: 'El mes debe estar entre 01 y 12.',
  expired: 'Esta tarjeta ha caducado.',
  'too-far-ahead': 'Comprueba el año de caducidad.',
  invalid: 'Introduce la fecha de caducidad como MM/AA.',
}

/** Spanish (`es`): card-fields' words for `@card-jwe/card-fields/locales/es`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Introduce el número de tarjeta.',
      characters: 'Usa solo números.',
      brand: 'No se acepta este tipo de tarjeta.',
      luhn: 'Comprueba el número de tarjeta.',
      length: 'El número de tarjeta está incompleto.',
      invalid: 'Comprueba el número de tarjeta.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Introduce el mes de caducidad.',
      invalid: 'Comprueba el mes de caducidad.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Introduce el año de caducidad.',
      format: 'Introduce el año como AA o AAAA.',
      invalid: 'Comprueba el año de caducidad.',
    },
    securityCode: {
      required: 'Introduce el código de seguridad.',
      characters: 'Usa solo números.',
      length: 'El código de seguridad está incompleto.',
      invalid: 'Comprueba el código de seguridad.',
    },
    holderName: {
      characters: 'No uses números en el nombre.',
      length: 'El nombre es demasiado largo.',
      invalid: 'Comprueba el nombre.',
    },
  },
  securityCodeLabel: (code) =>
    code
      ? `Código de seguridad (${code.name}, ${code.size} dígitos)`
      : code === null
        ? 'No se necesita código de seguridad'
        : 'Código de seguridad',
})
