import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Indtast udløbsdatoen som MM/ÅÅ.',
  characters: 'Brug kun tal.',
  format: 'Indtast året som ÅÅ.',
  month: 'Måneden skal være 01–12.',
  expired: 'Kortet er udløbet.',
  'too-far-ahead': 'Kontrollér udløbsåret.',
  invalid: 'Indtast udløbsdatoen som MM/ÅÅ.',
}

/** Danish (`da`): card-fields' words for `@card-jwe/card-fields/locales/da`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Indtast kortnummeret.',
      characters: 'Brug kun tal.',
      brand: 'Denne korttype accepteres ikke.',
      luhn: 'Kontrollér kortnummeret.',
      length: 'Kortnummeret er ufuldstændigt.',
      invalid: 'Kontrollér kortnummeret.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Indtast udløbsmåneden.',
      invalid: 'Kontrollér udløbsmåneden.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Indtast udløbsåret.',
      format: 'Indtast året som ÅÅ eller ÅÅÅÅ.',
      invalid: 'Kontrollér udløbsåret.',
    },
    securityCode: {
      required: 'Indtast sikkerhedskoden.',
      characters: 'Brug kun tal.',
      length: 'Sikkerhedskoden er ufuldstændig.',
      invalid: 'Kontrollér sikkerhedskoden.',
    },
    holderName: {
      characters: 'Brug ikke tal i navnet.',
      length: 'Navnet er for langt.',
      invalid: 'Kontrollér navnet.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Sikkerhedskode (${code.name}, ${code.size} cifre)` : code === null ? 'Ingen sikkerhedskode nødvendig' : 'Sikkerhedskode',
})
