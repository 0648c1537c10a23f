import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Zadejte datum platnosti ve tvaru MM/RR.',
  characters: 'Používejte jen číslice.',
  format: 'Zadejte rok ve tvaru RR.',
  month: 'Měsíc musí být 01 až 12.',
  expired: 'Platnost této karty vypršela.',
  'too-far-ahead': 'Zkontrolujte rok platnosti.',
  invalid: 'Zadejte datum platnosti ve tvaru MM/RR.',
}

/** Czech (`cs`): card-fields' words for `@card-jwe/card-fields/locales/cs`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Zadejte číslo karty.',
      characters: 'Používejte jen číslice.',
      brand: 'Tento typ karty nepřijímáme.',
      luhn: 'Zkontrolujte číslo karty.',
      length: 'Číslo karty je neúplné.',
      invalid: 'Zkontrolujte číslo karty.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Zadejte měsíc platnosti.',
      invalid: 'Zkontrolujte měsíc platnosti.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Zadejte rok platnosti.',
      format: 'Zadejte rok ve tvaru RR nebo RRRR.',
      invalid: 'Zkontrolujte rok platnosti.',
    },
    securityCode: {
      required: 'Zadejte bezpečnostní kód.',
      characters: 'Používejte jen číslice.',
      length: 'Bezpečnostní kód je neúplný.',
      invalid: 'Zkontrolujte bezpečnostní kód.',
    },
    holderName: {
      characters: 'Jméno nesmí obsahovat číslice.',
      length: 'Jméno je příliš dlouhé.',
      invalid: 'Zkontrolujte jméno.',
    },
  },
  securityCodeLabel: (code) =>
    code
      ? `Bezpečnostní kód (${code.name}, počet číslic: ${code.size})`
      : code === null
        ? 'Bezpečnostní kód není potřeba'
        : 'Bezpečnostní kód',
})
