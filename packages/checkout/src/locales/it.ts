import type { CheckoutMessages } from '../messages.js'

/** Italian (`it`): the flow's words for `@card-jwe/checkout/locales/it`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Elaborazione del pagamento…',
  fix: 'Correggi i campi evidenziati.',
  challenge: 'La tua banca ti chiede di confermare il pagamento.',
  redirecting: 'Ti stiamo portando alla tua banca…',
  paid: 'Pagamento autorizzato. Grazie!',
  refused: 'La carta è stata rifiutata. Non è stato addebitato nulla. Prova un’altra carta.',
  notFinished: 'Il pagamento non è stato completato. Non è stato addebitato nulla. Puoi riprovare.',
  pending: 'Il pagamento è in fase di conferma. Ricarica la pagina tra poco; non paghi mai due volte.',
  unavailable: 'Al momento non è possibile pagare. Riprova tra poco; non paghi mai due volte.',
  offline: 'Il negozio non è raggiungibile. Controlla la connessione e riprova.',
  card: 'Controlla i dati della carta e riprova.',
  order: 'Il tuo ordine è cambiato. Ricarica la pagina e controllalo.',
  ended: 'Questo pagamento è già concluso. Ricarica la pagina per vederne l’esito.',
  failed: 'Il pagamento non è riuscito. Non è stato addebitato nulla. Riprova.',
})
