import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Saisissez la date d’expiration au format MM/AA.',
  characters: 'Utilisez uniquement des chiffres.',
  format: 'Saisissez l’année au format AA.',
  month: 'Le mois doit être compris entre 01 et 12.',
  expired: 'Cette carte a expiré.',
  'too-far-ahead': 'Vérifiez l’année d’expiration.',
  invalid: 'Saisissez la date d’expiration au format MM/AA.',
}

/** French (`fr`): card-fields' words for `@card-jwe/card-fields/locales/fr`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Saisissez le numéro de carte.',
      characters: 'Utilisez uniquement des chiffres.',
      brand: 'Ce type de carte n’est pas accepté.',
      luhn: 'Vérifiez le numéro de carte.',
      length: 'Le numéro de carte est incomplet.',
      invalid: 'Vérifiez le numéro de carte.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Saisissez le mois d’expiration.',
      invalid: 'Vérifiez le mois d’expiration.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Saisissez l’année d’expiration.',
      format: 'Saisissez l’année au format AA ou AAAA.',
      invalid: 'Vérifiez l’année d’expiration.',
    },
    securityCode: {
      required: 'Saisissez le code de sécurité.',
      characters: 'Utilisez uniquement des chiffres.',
      length: 'Le code de sécurité est incomplet.',
      invalid: 'Vérifiez le code de sécurité.',
    },
    holderName: {
      characters: 'N’utilisez pas de chiffres dans le nom.',
      length: 'Le nom est trop long.',
      invalid: 'Vérifiez le nom.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Code de sécurité (${code.name}, ${code.size} chiffres)` : code === null ? 'Aucun code de sécurité requis' : 'Code de sécurité',
})
