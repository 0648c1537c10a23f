import type { CheckoutMessages } from '../messages.js'

/** Norwegian Bokmål (`nb`): the flow's words for `@card-jwe/checkout/locales/nb`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Betalingen behandles…',
  fix: 'Rett opp de markerte feltene.',
  challenge: 'Banken din ber deg bekrefte betalingen.',
  redirecting: 'Du sendes til banken din…',
  paid: 'Betalingen er godkjent. Takk!',
  refused: 'Kortet ditt ble avvist. Ingen penger er trukket. Prøv et annet kort.',
  notFinished: 'Betalingen ble ikke fullført. Ingen penger er trukket. Du kan prøve igjen.',
  pending: 'Betalingen bekreftes. Last inn siden på nytt om litt; du betaler aldri to ganger.',
  unavailable: 'Det går ikke å betale nå. Prøv igjen om litt; du betaler aldri to ganger.',
  offline: 'Butikken kan ikke nås. Sjekk tilkoblingen og prøv igjen.',
  card: 'Kontroller kortopplysningene og prøv igjen.',
  order: 'Bestillingen din er endret. Last inn siden på nytt og kontroller den.',
  ended: 'Betalingen er allerede avsluttet. Last inn siden på nytt for å se resultatet.',
  failed: 'Betalingen kunne ikke gjennomføres. Ingen penger er trukket. Prøv igjen.',
})
