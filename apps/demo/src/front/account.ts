/**
 * The signed-in shopper's account page: their saved cards at the payment service, each with its
 * Remove button (the service's unsubscribe, through the shop back end). The shop knows the shopper
 * from the session cookie; the page names only the card.
 */
import { api, ApiError } from './api.js'
import { describeSavedCard, type SavedCardChoice } from './saved-card-label.js'
import './styles.css'

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!
const announce = (text: string) => ($('#status').textContent = text)

function row(card: SavedCardChoice): HTMLLIElement {
  const item = document.createElement('li')
  const name = describeSavedCard(card)
  const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Remove' })
  remove.setAttribute('aria-label', `Remove ${name}`)
  remove.addEventListener('click', () => {
    remove.disabled = true
    void api('/api/account/saved-cards/remove', { storedPaymentMethodId: card.id })
      .then(async () => {
        await render()
        // The button is gone with its card: focus goes to the heading, and the status says what happened.
        $('#account-title').focus()
        announce(`${name} removed.`)
      })
      .catch((error: unknown) => {
        remove.disabled = false
        announce(`${name} could not be removed: ${(error as Error).message}`)
      })
  })
  item.append(Object.assign(document.createElement('span'), { textContent: name }), remove)
  return item
}

async function render(): Promise<void> {
  const cards = await api<SavedCardChoice[]>('/api/account/saved-cards')
  $('#saved-cards').replaceChildren(...cards.map(row))
  $('#no-saved-cards').hidden = cards.length > 0
  $('#account-cards').hidden = false
}

render()
  .catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'SIGNED_OUT') $('#account-signed-out').hidden = false
    else announce((error as Error).message)
  })
  .finally(() => (document.body.dataset.ready = 'true'))
