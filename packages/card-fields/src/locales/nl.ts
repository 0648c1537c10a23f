import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Vul de vervaldatum in als MM/JJ.',
  characters: 'Gebruik alleen cijfers.',
  format: 'Vul het jaar in als JJ.',
  month: 'De maand moet 01 tot en met 12 zijn.',
  expired: 'Deze kaart is verlopen.',
  'too-far-ahead': 'Controleer het vervaljaar.',
  invalid: 'Vul de vervaldatum in als MM/JJ.',
}

/** Dutch (`nl`): card-fields' words for `@card-jwe/card-fields/locales/nl`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Vul het kaartnummer in.',
      characters: 'Gebruik alleen cijfers.',
      brand: 'Dit type kaart wordt niet geaccepteerd.',
      luhn: 'Controleer het kaartnummer: het is niet geldig.',
      length: 'Het kaartnummer is niet compleet.',
      invalid: 'Controleer het kaartnummer.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Vul de vervalmaand in.',
      invalid: 'Controleer de vervalmaand.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Vul het vervaljaar in.',
      format: 'Vul het jaar in als JJ of JJJJ.',
      invalid: 'Controleer het vervaljaar.',
    },
    securityCode: {
      required: 'Vul de beveiligingscode in.',
      characters: 'Gebruik alleen cijfers.',
      length: 'De beveiligingscode is niet compleet.',
      invalid: 'Controleer de beveiligingscode.',
    },
    holderName: {
      characters: 'Gebruik geen cijfers in de naam.',
      length: 'De naam is te lang.',
      invalid: 'Controleer de naam.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Beveiligingscode (${code.name}, ${code.size} cijfers)` : code === null ? 'Geen beveiligingscode nodig' : 'Beveiligingscode',
})

/** The same words under the name card-fields' root entry exported them by before the locales had entries of their own. */
export const MESSAGES_NL: CardFieldMessages = messages
