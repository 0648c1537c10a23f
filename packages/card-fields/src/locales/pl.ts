import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Wpisz datę ważności w formacie MM/RR.',
  characters: 'Używaj tylko cyfr.',
  format: 'Wpisz rok w formacie RR.',
  month: 'Miesiąc musi być z zakresu 01–12.',
  expired: 'Ta karta straciła ważność.',
  'too-far-ahead': 'Sprawdź rok ważności.',
  invalid: 'Wpisz datę ważności w formacie MM/RR.',
}

/** Polish (`pl`): card-fields' words for `@card-jwe/card-fields/locales/pl`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Wpisz numer karty.',
      characters: 'Używaj tylko cyfr.',
      brand: 'Ten rodzaj karty nie jest akceptowany.',
      luhn: 'Sprawdź numer karty.',
      length: 'Numer karty jest niekompletny.',
      invalid: 'Sprawdź numer karty.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Wpisz miesiąc ważności.',
      invalid: 'Sprawdź miesiąc ważności.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Wpisz rok ważności.',
      format: 'Wpisz rok w formacie RR lub RRRR.',
      invalid: 'Sprawdź rok ważności.',
    },
    securityCode: {
      required: 'Wpisz kod zabezpieczający.',
      characters: 'Używaj tylko cyfr.',
      length: 'Kod zabezpieczający jest niekompletny.',
      invalid: 'Sprawdź kod zabezpieczający.',
    },
    holderName: {
      characters: 'Imię i nazwisko nie może zawierać cyfr.',
      length: 'Imię i nazwisko jest za długie.',
      invalid: 'Sprawdź imię i nazwisko.',
    },
  },
  securityCodeLabel: (code) =>
    code
      ? `Kod zabezpieczający (${code.name}, liczba cyfr: ${code.size})`
      : code === null
        ? 'Kod zabezpieczający nie jest wymagany'
        : 'Kod zabezpieczający',
})
