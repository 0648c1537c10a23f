import type { CheckoutMessages } from '../messages.js'

/** Danish (`da`): the flow's words for `@card-jwe/checkout/locales/da`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Din betaling behandles…',
  fix: 'Ret de markerede felter.',
  challenge: 'Din bank beder dig bekræfte betalingen.',
  redirecting: 'Du sendes til din bank…',
  paid: 'Betalingen er godkendt. Tak!',
  refused: 'Dit kort blev afvist. Der er ikke trukket penge. Prøv et andet kort.',
  notFinished: 'Betalingen blev ikke gennemført. Der er ikke trukket penge. Du kan prøve igen.',
  pending: 'Betalingen bekræftes. Genindlæs siden om lidt; du betaler aldrig to gange.',
  unavailable: 'Det er ikke muligt at betale lige nu. Prøv igen om lidt; du betaler aldrig to gange.',
  offline: 'Butikken kan ikke nås. Tjek din forbindelse, og prøv igen.',
  card: 'Kontrollér dine kortoplysninger, og prøv igen.',
  order: 'Din ordre er ændret. Genindlæs siden, og kontrollér den.',
  ended: 'Betalingen er allerede afsluttet. Genindlæs siden for at se resultatet.',
  failed: 'Betalingen kunne ikke gennemføres. Der er ikke trukket penge. Prøv igen.',
})
