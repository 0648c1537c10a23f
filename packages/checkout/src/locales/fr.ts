import type { CheckoutMessages } from '../messages.js'

/** French (`fr`): the flow's words for `@card-jwe/checkout/locales/fr`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Paiement en cours…',
  fix: 'Corrigez les champs signalés.',
  challenge: 'Votre banque vous demande de confirmer le paiement.',
  redirecting: 'Redirection vers votre banque…',
  paid: 'Paiement autorisé. Merci !',
  refused: 'Votre carte a été refusée. Aucun montant n’a été débité. Essayez une autre carte.',
  notFinished: 'Le paiement n’a pas abouti. Aucun montant n’a été débité. Vous pouvez réessayer.',
  pending: 'Le paiement est en cours de confirmation. Rechargez la page dans un instant ; vous n’êtes jamais débité deux fois.',
  unavailable: 'Le paiement est impossible pour le moment. Réessayez dans un instant ; vous n’êtes jamais débité deux fois.',
  offline: 'La boutique est injoignable. Vérifiez votre connexion et réessayez.',
  card: 'Vérifiez les données de votre carte et réessayez.',
  order: 'Votre commande a changé. Rechargez la page et vérifiez-la.',
  ended: 'Ce paiement est déjà terminé. Rechargez la page pour voir son résultat.',
  failed: 'Le paiement n’a pas pu être effectué. Aucun montant n’a été débité. Réessayez.',
})
