import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Geben Sie das Ablaufdatum als MM/JJ ein.',
  characters: 'Verwenden Sie nur Ziffern.',
  format: 'Geben Sie das Jahr als JJ ein.',
  month: 'Der Monat muss zwischen 01 und 12 liegen.',
  expired: 'Diese Karte ist abgelaufen.',
  'too-far-ahead': 'Prüfen Sie das Ablaufjahr.',
  invalid: 'Geben Sie das Ablaufdatum als MM/JJ ein.',
}

/** German (`de`): card-fields' words for `@card-jwe/card-fields/locales/de`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Geben Sie die Kartennummer ein.',
      characters: 'Verwenden Sie nur Ziffern.',
      brand: 'Diese Kartenart wird nicht akzeptiert.',
      luhn: 'Prüfen Sie die Kartennummer.',
      length: 'Die Kartennummer ist unvollständig.',
      invalid: 'Prüfen Sie die Kartennummer.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Geben Sie den Ablaufmonat ein.',
      invalid: 'Prüfen Sie den Ablaufmonat.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Geben Sie das Ablaufjahr ein.',
      format: 'Geben Sie das Jahr als JJ oder JJJJ ein.',
      invalid: 'Prüfen Sie das Ablaufjahr.',
    },
    securityCode: {
      required: 'Geben Sie den Sicherheitscode ein.',
      characters: 'Verwenden Sie nur Ziffern.',
      length: 'Der Sicherheitscode ist unvollständig.',
      invalid: 'Prüfen Sie den Sicherheitscode.',
    },
    holderName: {
      characters: 'Der Name darf keine Ziffern enthalten.',
      length: 'Der Name ist zu lang.',
      invalid: 'Prüfen Sie den Namen.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Sicherheitscode (${code.name}, ${code.size} Ziffern)` : code === null ? 'Kein Sicherheitscode nötig' : 'Sicherheitscode',
})
