import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Skriv inn utløpsdatoen som MM/ÅÅ.',
  characters: 'Bruk bare sifre.',
  format: 'Skriv inn året som ÅÅ.',
  month: 'Måneden må være 01–12.',
  expired: 'Kortet har utløpt.',
  'too-far-ahead': 'Kontroller utløpsåret.',
  invalid: 'Skriv inn utløpsdatoen som MM/ÅÅ.',
}

/** Norwegian Bokmål (also for `no`) (`nb`): card-fields' words for `@card-jwe/card-fields/locales/nb`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Skriv inn kortnummeret.',
      characters: 'Bruk bare sifre.',
      brand: 'Denne korttypen godtas ikke.',
      luhn: 'Kontroller kortnummeret.',
      length: 'Kortnummeret er ufullstendig.',
      invalid: 'Kontroller kortnummeret.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Skriv inn utløpsmåneden.',
      invalid: 'Kontroller utløpsmåneden.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Skriv inn utløpsåret.',
      format: 'Skriv inn året som ÅÅ eller ÅÅÅÅ.',
      invalid: 'Kontroller utløpsåret.',
    },
    securityCode: {
      required: 'Skriv inn sikkerhetskoden.',
      characters: 'Bruk bare sifre.',
      length: 'Sikkerhetskoden er ufullstendig.',
      invalid: 'Kontroller sikkerhetskoden.',
    },
    holderName: {
      characters: 'Ikke bruk sifre i navnet.',
      length: 'Navnet er for langt.',
      invalid: 'Kontroller navnet.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Sikkerhetskode (${code.name}, ${code.size} sifre)` : code === null ? 'Ingen sikkerhetskode nødvendig' : 'Sikkerhetskode',
})
