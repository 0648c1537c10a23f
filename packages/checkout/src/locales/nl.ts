import type { CheckoutMessages } from '../messages.js'

/** Dutch (`nl`): the flow's words for `@card-jwe/checkout/locales/nl`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Je betaling wordt verwerkt…',
  fix: 'Verbeter de gemarkeerde velden.',
  challenge: 'Je bank vraagt je de betaling te bevestigen.',
  redirecting: 'Je gaat naar je bank…',
  paid: 'Betaling geslaagd. Bedankt!',
  refused: 'Je kaart is geweigerd. Er is niets afgeschreven. Probeer een andere kaart.',
  notFinished: 'De betaling is niet afgerond. Er is niets afgeschreven. Je kunt het opnieuw proberen.',
  pending: 'De betaling wordt bevestigd. Laad deze pagina zo opnieuw; je betaalt nooit twee keer.',
  unavailable: 'Betalen lukt nu niet. Probeer het zo opnieuw; je betaalt nooit twee keer.',
  offline: 'De winkel is niet bereikbaar. Controleer je verbinding en probeer het opnieuw.',
  card: 'Controleer je kaartgegevens en probeer het opnieuw.',
  order: 'Je bestelling is gewijzigd. Laad de pagina opnieuw en controleer haar.',
  ended: 'Deze betaling is al afgerond. Laad de pagina opnieuw voor het resultaat.',
  failed: 'De betaling is niet gelukt. Er is niets afgeschreven. Probeer het opnieuw.',
})
