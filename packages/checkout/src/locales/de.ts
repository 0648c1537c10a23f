import type { CheckoutMessages } from '../messages.js'

/** German (`de`): the flow's words for `@card-jwe/checkout/locales/de`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Ihre Zahlung wird verarbeitet…',
  fix: 'Bitte korrigieren Sie die markierten Felder.',
  challenge: 'Ihre Bank bittet Sie, die Zahlung zu bestätigen.',
  redirecting: 'Sie werden zu Ihrer Bank weitergeleitet…',
  paid: 'Zahlung autorisiert. Vielen Dank!',
  refused: 'Ihre Karte wurde abgelehnt. Es wurde nichts abgebucht. Versuchen Sie eine andere Karte.',
  notFinished: 'Die Zahlung wurde nicht abgeschlossen. Es wurde nichts abgebucht. Sie können es erneut versuchen.',
  pending: 'Die Zahlung wird bestätigt. Laden Sie die Seite gleich neu; Sie zahlen nie doppelt.',
  unavailable: 'Zahlen ist gerade nicht möglich. Versuchen Sie es gleich erneut; Sie zahlen nie doppelt.',
  offline: 'Der Shop ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
  card: 'Prüfen Sie Ihre Kartendaten und versuchen Sie es erneut.',
  order: 'Ihre Bestellung hat sich geändert. Laden Sie die Seite neu und prüfen Sie sie.',
  ended: 'Diese Zahlung ist bereits abgeschlossen. Laden Sie die Seite neu, um das Ergebnis zu sehen.',
  failed: 'Die Zahlung ist fehlgeschlagen. Es wurde nichts abgebucht. Versuchen Sie es erneut.',
})
