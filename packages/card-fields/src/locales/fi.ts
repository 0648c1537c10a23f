import type { LocaleMessages } from '../lib/locale-messages.js'
import type { CardFieldMessages } from '../messages.js'

// The month and year fields share the expiry's words but for their own few.
const EXPIRY = {
  required: 'Anna voimassaolopäivä muodossa KK/VV.',
  characters: 'Käytä vain numeroita.',
  format: 'Anna vuosi muodossa VV.',
  month: 'Kuukauden on oltava 01–12.',
  expired: 'Tämä kortti on vanhentunut.',
  'too-far-ahead': 'Tarkista voimassaolovuosi.',
  invalid: 'Anna voimassaolopäivä muodossa KK/VV.',
}

/** Finnish (`fi`): card-fields' words for `@card-jwe/card-fields/locales/fi`. */
export const messages: CardFieldMessages = Object.freeze<LocaleMessages>({
  errors: {
    number: {
      required: 'Anna kortin numero.',
      characters: 'Käytä vain numeroita.',
      brand: 'Tätä korttityyppiä ei hyväksytä.',
      luhn: 'Tarkista kortin numero.',
      length: 'Kortin numero on vajaa.',
      invalid: 'Tarkista kortin numero.',
    },
    expiry: EXPIRY,
    expiryMonth: {
      ...EXPIRY,
      required: 'Anna voimassaolokuukausi.',
      invalid: 'Tarkista voimassaolokuukausi.',
    },
    expiryYear: {
      ...EXPIRY,
      required: 'Anna voimassaolovuosi.',
      format: 'Anna vuosi muodossa VV tai VVVV.',
      invalid: 'Tarkista voimassaolovuosi.',
    },
    securityCode: {
      required: 'Anna turvakoodi.',
      characters: 'Käytä vain numeroita.',
      length: 'Turvakoodi on vajaa.',
      invalid: 'Tarkista turvakoodi.',
    },
    holderName: {
      characters: 'Älä käytä numeroita nimessä.',
      length: 'Nimi on liian pitkä.',
      invalid: 'Tarkista nimi.',
    },
  },
  securityCodeLabel: (code) =>
    code ? `Turvakoodi (${code.name}, ${code.size} numeroa)` : code === null ? 'Turvakoodia ei tarvita' : 'Turvakoodi',
})
