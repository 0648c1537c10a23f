import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Ange utgångsdatumet som MM/ÅÅ.',
  characters: 'Använd bara siffror.',
  format: 'Ange året som ÅÅ.',
  month: 'Månaden måste vara 01–12.',
  expired: 'Kortet har gått ut.',
  'too-far-ahead': 'Kontrollera utgångsåret.',
  invalid: 'Ange utgångsdatumet som MM/ÅÅ.',
}

/** Swedish (`sv`): card-fields' words for `@card-jwe/card-fields/locales/sv`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Ange kortnumret.',
      characters: 'Använd bara siffror.',
      brand: 'Den här korttypen accepteras inte.',
      luhn: 'Kontrollera kortnumret.',
      length: 'Kortnumret är inte komplett.',
      invalid: 'Kontrollera kortnumret.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Ange utgångsmånaden.',
      invalid: 'Kontrollera utgångsmånaden.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Ange utgångsåret.',
      format: 'Ange året som ÅÅ eller ÅÅÅÅ.',
      invalid: 'Kontrollera utgångsåret.',
    },
    securityCode: {
      required: 'Ange säkerhetskoden.',
      characters: 'Använd bara siffror.',
      length: 'Säkerhetskoden är inte komplett.',
      invalid: 'Kontrollera säkerhetskoden.',
    },
    holderName: {
      characters: 'Använd inga siffror i namnet.',
      length: 'Namnet är för långt.',
      invalid: 'Kontrollera namnet.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Säkerhetskod (${code.name}, ${code.size} siffror)` : code === null ? 'Ingen säkerhetskod behövs' : 'Säkerhetskod',
})
