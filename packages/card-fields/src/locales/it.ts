import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Inserisci la data di scadenza nel formato MM/AA.',
  characters: 'Usa solo cifre.',
  format: 'Inserisci l’anno nel formato AA.',
  month: 'Il mese deve essere compreso tra 01 e 12.',
  expired: 'Questa carta è scaduta.',
  'too-far-ahead': 'Controlla l’anno di scadenza.',
  invalid: 'Inserisci la data di scadenza nel formato MM/AA.',
}

/** Italian (`it`): card-fields' words for `@card-jwe/card-fields/locales/it`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Inserisci il numero della carta.',
      characters: 'Usa solo cifre.',
      brand: 'Questo tipo di carta non è accettato.',
      luhn: 'Controlla il numero della carta.',
      length: 'Il numero della carta è incompleto.',
      invalid: 'Controlla il numero della carta.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Inserisci il mese di scadenza.',
      invalid: 'Controlla il mese di scadenza.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Inserisci l’anno di scadenza.',
      format: 'Inserisci l’anno nel formato AA o AAAA.',
      invalid: 'Controlla l’anno di scadenza.',
    },
    securityCode: {
      required: 'Inserisci il codice di sicurezza.',
      characters: 'Usa solo cifre.',
      length: 'Il codice di sicurezza è incompleto.',
      invalid: 'Controlla il codice di sicurezza.',
    },
    holderName: {
      characters: 'Non usare cifre nel nome.',
      length: 'Il nome è troppo lungo.',
      invalid: 'Controlla il nome.',
    },
  },
  securityCodeLabel: (code) =>
    code
      ? `Codice di sicurezza (${code.name}, ${code.size} cifre)`
      : code === null
        ? 'Nessun codice di sicurezza richiesto'
        : 'Codice di sicurezza',
})
