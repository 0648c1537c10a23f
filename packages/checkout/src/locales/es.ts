import type { CheckoutMessages } from '../messages.js'

/** Spanish (`es`): the flow's words for `@card-jwe/checkout/locales/es`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Procesando el pago…',
  fix: 'Corrija los campos marcados.',
  challenge: 'Su banco le pide que confirme el pago.',
  redirecting: 'Le llevamos a su banco…',
  paid: 'Pago autorizado. ¡Gracias!',
  refused: 'Su tarjeta ha sido rechazada. No se ha cobrado nada. Pruebe con otra tarjeta.',
  notFinished: 'El pago no se ha completado. No se ha cobrado nada. Puede intentarlo de nuevo.',
  pending: 'El pago se está confirmando. Recargue la página en un momento; nunca se cobra dos veces.',
  unavailable: 'Ahora no se puede pagar. Inténtelo de nuevo en un momento; nunca se cobra dos veces.',
  offline: 'No se puede conectar con la tienda. Compruebe su conexión e inténtelo de nuevo.',
  card: 'Compruebe los datos de su tarjeta e inténtelo de nuevo.',
  order: 'Su pedido ha cambiado. Recargue la página y revíselo.',
  ended: 'Este pago ya ha terminado. Recargue la página para ver su resultado.',
  failed: 'No se ha podido realizar el pago. No se ha cobrado nada. Inténtelo de nuevo.',
})
