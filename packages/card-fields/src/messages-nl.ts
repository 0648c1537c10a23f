import { BRAND_NAMES, type CardFieldMessages } from './messages.js'

/** Dutch (the service's stores are in NL). */
export const MESSAGES_NL: CardFieldMessages = Object.freeze<CardFieldMessages>({
  fieldNames: {
    number: 'Kaartnummer',
    expiry: 'Vervaldatum',
    expiryMonth: 'Vervalmaand',
    expiryYear: 'Vervaljaar',
    securityCode: 'Beveiligingscode',
    holderName: 'Naam op de kaart',
  },
  errors: {
    number: {
      required: 'Vul het kaartnummer in.',
      characters: 'Gebruik alleen cijfers.',
      brand: 'Dit type kaart wordt niet geaccepteerd.',
      luhn: 'Controleer het kaartnummer: het is niet geldig.',
      length: 'Het kaartnummer is niet compleet.',
      invalid: 'Controleer het kaartnummer.',
    },
    expiry: {
      required: 'Vul de vervaldatum in als MM/JJ.',
      characters: 'Gebruik alleen cijfers, als MM/JJ.',
      format: 'Vul het jaar in als JJ.',
      month: 'De maand moet 01 tot en met 12 zijn.',
      expired: 'Deze kaart is verlopen.',
      'too-far-ahead': 'Controleer het vervaljaar.',
      invalid: 'Vul de vervaldatum in als MM/JJ.',
    },
    expiryMonth: {
      required: 'Vul de vervalmaand in.',
      characters: 'Gebruik alleen cijfers.',
      month: 'De maand moet 01 tot en met 12 zijn.',
      invalid: 'Controleer de vervalmaand.',
    },
    expiryYear: {
      required: 'Vul het vervaljaar in.',
      characters: 'Gebruik alleen cijfers.',
      format: 'Vul het jaar in als JJ of JJJJ.',
      expired: 'Deze kaart is verlopen.',
      'too-far-ahead': 'Controleer het vervaljaar.',
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
  securityCodeLabel: (code) => (code ? `Beveiligingscode (${code.name}, ${code.size} cijfers)` : code === null ? 'Geen beveiligingscode nodig' : 'Beveiligingscode'),
  brandRecognised: (brand) => `${BRAND_NAMES[brand]}-kaart`,
})
