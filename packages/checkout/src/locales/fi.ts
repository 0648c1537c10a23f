import type { CheckoutMessages } from '../messages.js'

/** Finnish (`fi`): the flow's words for `@card-jwe/checkout/locales/fi`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Maksua käsitellään…',
  fix: 'Korjaa merkityt kentät.',
  challenge: 'Pankkisi pyytää sinua vahvistamaan maksun.',
  redirecting: 'Siirrytään pankkiisi…',
  paid: 'Maksu hyväksytty. Kiitos!',
  refused: 'Korttisi hylättiin. Rahaa ei veloitettu. Kokeile toista korttia.',
  notFinished: 'Maksu jäi kesken. Rahaa ei veloitettu. Voit yrittää uudelleen.',
  pending: 'Maksua vahvistetaan. Lataa sivu hetken päästä uudelleen; sinua ei veloiteta kahdesti.',
  unavailable: 'Maksaminen ei onnistu juuri nyt. Yritä hetken päästä uudelleen; sinua ei veloiteta kahdesti.',
  offline: 'Kauppaan ei saada yhteyttä. Tarkista yhteys ja yritä uudelleen.',
  card: 'Tarkista korttisi tiedot ja yritä uudelleen.',
  order: 'Tilauksesi on muuttunut. Lataa sivu uudelleen ja tarkista se.',
  ended: 'Tämä maksu on jo päättynyt. Lataa sivu uudelleen nähdäksesi tuloksen.',
  failed: 'Maksu epäonnistui. Rahaa ei veloitettu. Yritä uudelleen.',
})
