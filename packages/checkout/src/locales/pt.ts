import type { CheckoutMessages } from '../messages.js'

/** Portuguese (`pt`): the flow's words for `@card-jwe/checkout/locales/pt`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'A processar o pagamento…',
  fix: 'Corrija os campos assinalados.',
  challenge: 'O seu banco pede-lhe que confirme o pagamento.',
  redirecting: 'A levá-lo ao seu banco…',
  paid: 'Pagamento autorizado. Obrigado!',
  refused: 'O seu cartão foi recusado. Nada foi cobrado. Experimente outro cartão.',
  notFinished: 'O pagamento não foi concluído. Nada foi cobrado. Pode tentar de novo.',
  pending: 'O pagamento está a ser confirmado. Recarregue a página daqui a pouco; nunca paga duas vezes.',
  unavailable: 'Não é possível pagar agora. Tente de novo daqui a pouco; nunca paga duas vezes.',
  offline: 'Não é possível contactar a loja. Verifique a ligação e tente de novo.',
  card: 'Verifique os dados do cartão e tente de novo.',
  order: 'A sua encomenda mudou. Recarregue a página e verifique-a.',
  ended: 'Este pagamento já terminou. Recarregue a página para ver o resultado.',
  failed: 'Não foi possível efetuar o pagamento. Nada foi cobrado. Tente de novo.',
})
