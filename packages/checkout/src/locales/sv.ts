import type { CheckoutMessages } from '../messages.js'

/** Swedish (`sv`): the flow's words for `@card-jwe/checkout/locales/sv`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Betalningen behandlas…',
  fix: 'Rätta de markerade fälten.',
  challenge: 'Din bank ber dig bekräfta betalningen.',
  redirecting: 'Du skickas till din bank…',
  paid: 'Betalningen är godkänd. Tack!',
  refused: 'Ditt kort nekades. Inga pengar drogs. Prova ett annat kort.',
  notFinished: 'Betalningen slutfördes inte. Inga pengar drogs. Du kan försöka igen.',
  pending: 'Betalningen bekräftas. Ladda om sidan om en stund; du debiteras aldrig två gånger.',
  unavailable: 'Det går inte att betala just nu. Försök igen om en stund; du debiteras aldrig två gånger.',
  offline: 'Butiken kan inte nås. Kontrollera anslutningen och försök igen.',
  card: 'Kontrollera kortuppgifterna och försök igen.',
  order: 'Din beställning har ändrats. Ladda om sidan och kontrollera den.',
  ended: 'Betalningen är redan avslutad. Ladda om sidan för att se resultatet.',
  failed: 'Betalningen kunde inte genomföras. Inga pengar drogs. Försök igen.',
})
