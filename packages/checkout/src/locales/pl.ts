import type { CheckoutMessages } from '../messages.js'

/** Polish (`pl`): the flow's words for `@card-jwe/checkout/locales/pl`. */
export const messages: CheckoutMessages = Object.freeze({
  processing: 'Przetwarzanie płatności…',
  fix: 'Popraw zaznaczone pola.',
  challenge: 'Twój bank prosi o potwierdzenie płatności.',
  redirecting: 'Przekierowanie do banku…',
  paid: 'Płatność autoryzowana. Dziękujemy!',
  refused: 'Karta została odrzucona. Nic nie pobrano. Spróbuj innej karty.',
  notFinished: 'Płatność nie została dokończona. Nic nie pobrano. Możesz spróbować ponownie.',
  pending: 'Płatność jest potwierdzana. Odśwież stronę za chwilę; nigdy nie płacisz dwa razy.',
  unavailable: 'Płatność nie jest teraz możliwa. Spróbuj za chwilę; nigdy nie płacisz dwa razy.',
  offline: 'Brak połączenia ze sklepem. Sprawdź połączenie i spróbuj ponownie.',
  card: 'Sprawdź dane karty i spróbuj ponownie.',
  order: 'Twoje zamówienie się zmieniło. Odśwież stronę i sprawdź je.',
  ended: 'Ta płatność jest już zakończona. Odśwież stronę, aby zobaczyć wynik.',
  failed: 'Płatność się nie powiodła. Nic nie pobrano. Spróbuj ponownie.',
})
