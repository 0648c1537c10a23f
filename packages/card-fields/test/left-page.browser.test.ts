/**
 * A card form the shopper leaves for another page and comes back to with Back: the browser keeps
 * no card data for the history entry, and what it may put back is judged with its brand.
 */
import { expect, it } from 'vitest'
import type { CardFields } from '../src/index.ts'

type FormWindow = Window & { cardFields: CardFields; attach(): CardFields }

/**
 * The frame's next page, loaded whole and its load event over: a navigation before that replaces the
 * history entry instead of adding one (HTML, "navigate", historyHandling).
 */
const loaded = (frame: HTMLIFrameElement) =>
  new Promise((resolve) => frame.addEventListener('load', () => setTimeout(resolve, 50), { once: true }))

it('leaves no card number, expiry or code in the fields after Back from a page not kept in the cache', async () => {
  const frame = document.createElement('iframe')
  const ready = loaded(frame)
  frame.src = new URL('./fixtures/left-page.html', import.meta.url).href
  document.body.append(frame)
  await ready
  const form = () => frame.contentDocument!
  // Typed as autofill types: the text set, then an input event (the fields re-format it).
  for (const [id, text] of [
    ['number', '378282246310005'],
    ['expiry', '1230'],
    ['cvc', '1234'],
  ] as const) {
    const input = form().getElementById(id) as HTMLInputElement
    input.value = text
    input.dispatchEvent(new (frame.contentWindow as typeof window).InputEvent('input', { bubbles: true }))
  }
  expect((frame.contentWindow as FormWindow).cardFields.brand()?.type).toBe('american-express')

  const away = loaded(frame)
  frame.contentWindow!.location.assign(new URL('./fixtures/elsewhere.html', import.meta.url).href)
  await away
  const back = loaded(frame)
  frame.contentWindow!.history.back()
  await back
  // Form restoration happens after the page's scripts ran: give it the browser's turn.
  await new Promise((resolve) => setTimeout(resolve, 200))
  const values = ['number', 'expiry', 'cvc'].map((id) => (form().getElementById(id) as HTMLInputElement).value)
  expect(values).toEqual(['', '', ''])
  // Typed on the page come back to, then the fields attached again (a route, a remount): kept.
  const number = form().getElementById('number') as HTMLInputElement
  number.value = '4111 1111 1111 1111'
  const page = frame.contentWindow as FormWindow
  page.cardFields.destroy()
  page.cardFields = page.attach()
  expect(number.value).toBe('4111 1111 1111 1111')
  frame.remove()
})
