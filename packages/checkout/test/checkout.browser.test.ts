/**
 * The checkout flow in real browsers against a real shop back end and sandbox on loopback: the
 * card typed into the shop's own inputs, encrypted at Pay, 3-D Secure answered in the bank's frame,
 * the redirect return answered once, and every result in the shopper's words.
 */
import { describe, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { messages as AR } from '../src/locales/ar.js'
import { messages as EN } from '../src/locales/en.js'
import { $, calls, mount, newOrder, pressPay, shop, typeCard } from './page.ts'

describe('mountCheckout', () => {
  it('loads the config and certificate at mount, keeps Pay off while the payment is out, and ends paid', async () => {
    const order = await newOrder()
    const before = await calls()
    const page = mount({ order })
    expect(await page.checkout.ready).toBe(true)
    expect(page.events[0]).toEqual({ type: 'ready' })
    const configLoads = (await calls())['GET /api/config']
    expect(configLoads).toBe((before['GET /api/config'] ?? 0) + 1)
    await typeCard(shop.cards.frictionless)
    await pressPay(page)
    expect(page.pay.disabled).toBe(true)
    expect($<HTMLInputElement>('number').disabled).toBe(true)
    // A second submit while the first is out sends nothing.
    $<HTMLFormElement>('pay-form').requestSubmit()
    const result = await page.nextResult()
    expect(result).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
    expect($('status').textContent).toBe(EN.paid)
    expect(page.pay.disabled).toBe(true)
    expect((await calls())['/api/payments']).toBe((before['/api/payments'] ?? 0) + 1)
    expect(page.results).toHaveLength(1)
    // The certificate came with the config at mount: Pay loaded nothing more.
    expect((await calls())['GET /api/config']).toBe(configLoads)
    page.checkout.destroy()
  })

  it('answers a 3-D Secure challenge in the focused bank frame, posting each step’s details once', async () => {
    const order = await newOrder()
    const before = (await calls())['/api/payment-details'] ?? 0
    const page = mount({ order })
    await typeCard(shop.cards.challenge)
    await pressPay(page)
    const challengeFrame = () => $('bank').querySelector('iframe[name^="threeds-challenge"]')
    await expect.poll(challengeFrame).not.toBeNull()
    expect($('bank').hidden).toBe(false)
    await expect.poll(() => document.activeElement).toBe(challengeFrame())
    expect($('status').textContent).toBe(EN.challenge)
    await commands.answerChallenge('password')
    expect(await page.nextResult()).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
    const steps = page.events.filter((event) => event.type === 'action')
    expect(steps.map((event) => event.detail)).toContain('threeDS2')
    expect((await calls())['/api/payment-details']).toBe(before + steps.length)
    expect($('bank').hidden).toBe(true)
    page.checkout.destroy()
  })

  it('cancel() ends a challenge at once: no frame left, nothing paid, the shopper’s words, Pay back', async () => {
    const page = mount({ order: await newOrder() })
    await typeCard(shop.cards.challenge)
    await pressPay(page)
    await expect.poll(() => $('bank').querySelector('iframe[name^="threeds-challenge"]')).not.toBeNull()
    page.checkout.cancel()
    expect(await page.nextResult()).toEqual({ kind: 'retry', message: EN.notFinished, code: 'ERR_ABORTED' })
    expect($('bank').querySelector('iframe')).toBeNull()
    expect($('bank').hidden).toBe(true)
    expect(page.pay.disabled).toBe(false)
    page.checkout.destroy()
  })

  it('sends storePaymentMethod when the shop says so at Pay: the shopper’s card is saved, and only then', async () => {
    const savedCards = async (order: { id: string | number }) => {
      const config = (await (await fetch(`${shop.url}/api/config?orderId=${order.id}`)).json()) as { savedCards?: unknown[] }
      return config.savedCards?.length
    }
    let save = false
    for (const expected of [0, 1]) {
      const order = await newOrder(1450, true)
      const page = mount({ order, storePaymentMethod: () => save })
      await typeCard(shop.cards.frictionless)
      await pressPay(page)
      expect(await page.nextResult()).toMatchObject({ kind: 'paid' })
      expect(await savedCards(order)).toBe(expected)
      page.checkout.destroy()
      save = true
    }
  })

  it('says a refused card in the shopper’s words and gives Pay back, fields emptied', async () => {
    const page = mount({ order: await newOrder() })
    await typeCard(shop.cards.refused)
    await pressPay(page)
    expect(await page.nextResult()).toEqual({ kind: 'refused', message: EN.refused, code: 'Refused' })
    expect(page.pay.disabled).toBe(false)
    expect($<HTMLInputElement>('number').disabled).toBe(false)
    expect($<HTMLInputElement>('number').value).toBe('')
    page.checkout.destroy()
  })

  it('is refused before anything is sent when the page is not at its return URL’s origin, where 3-D Secure answers go', async () => {
    // The shop sends this order's shopper back to another origin than the page's (localhost against 127.0.0.1).
    const elsewhere = location.hostname === 'localhost' ? 'http://127.0.0.1:9' : 'http://localhost:9'
    const page = mount({ order: await newOrder(1450, false, elsewhere) })
    const before = (await calls())['service payments'] ?? 0
    await typeCard(shop.cards.challenge)
    await pressPay(page)
    expect(await page.nextResult()).toEqual({ kind: 'retry', message: EN.unavailable, code: 'PAGE_ORIGIN_MISMATCH' })
    expect((await calls())['service payments'] ?? 0).toBe(before)
    expect($('bank').querySelector('iframe')).toBeNull()
    expect(page.pay.disabled).toBe(false)
    page.checkout.destroy()
  })

  it('never puts card data in an event, a result or the status', async () => {
    const card = shop.cards.challenge
    const page = mount({ order: await newOrder() })
    await page.checkout.ready
    await typeCard(card)
    await pressPay(page)
    await commands.answerChallenge('password')
    await page.nextResult()
    const seen = JSON.stringify([page.events, page.results, $('status').textContent])
    for (const secret of [card.number, card.number.slice(-4), card.expiry, card.expiry.replace('/', ''), card.securityCode])
      expect(seen).not.toContain(secret)
    const types = page.events.map((event) => event.type)
    expect([types[0], types[1], types.at(-1)]).toEqual(['ready', 'submit', 'result'])
    expect(new Set(types.slice(2, -1))).toEqual(new Set(['action']))
    page.checkout.destroy()
  })

  it.each([
    {
      what: 'the back end’s refusal of a tampered order',
      options: async () => {
        const order = await newOrder()
        return { order: { ...order, amount: { ...order.amount, value: 1 } } }
      },
      expected: { kind: 'retry', message: EN.order, code: 'ORDER_MISMATCH' },
    },
    {
      what: 'a back end that does not answer',
      options: async () => ({ order: await newOrder(), baseUrl: 'http://127.0.0.1:9' }),
      expected: { kind: 'retry', message: EN.offline, code: 'OFFLINE' },
    },
  ])('turns $what into the shopper’s words and gives Pay back', async ({ options, expected }) => {
    const page = mount(await options())
    await typeCard(shop.cards.frictionless)
    await pressPay(page)
    expect(await page.nextResult()).toEqual(expected)
    expect(page.pay.disabled).toBe(false)
    page.checkout.destroy()
  })

  it('resolves ready false when the shop cannot be reached', async () => {
    expect(await mount({ baseUrl: 'http://127.0.0.1:9' }).checkout.ready).toBe(false)
  })

  it('says what to fix when Pay finds fields in error, and sends nothing', async () => {
    const page = mount({ order: await newOrder() })
    await page.checkout.ready // else 'ready' may come after 'invalid'
    const before = (await calls())['/api/payments'] ?? 0
    await pressPay(page)
    expect($('status').textContent).toBe(EN.fix)
    expect(document.activeElement).toBe($('number'))
    expect(page.events.at(-1)).toEqual({ type: 'invalid' })
    expect((await calls())['/api/payments'] ?? 0).toBe(before)
    page.checkout.destroy()
  })

  /** A redirect payment paid at the bank: the address the shopper comes back to. */
  async function returnFromBank(): Promise<string> {
    const order = await newOrder()
    const body = { orderId: order.id, reference: order.reference, amount: order.amount, paymentMethod: { type: 'ideal' } }
    const init = { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
    const started = (await (await fetch(`${shop.url}/api/payments`, init)).json()) as { action: { url: string } }
    const bank = { method: 'POST', body: JSON.stringify({ url: started.action.url }) }
    const { returnUrl } = (await (await fetch(`${shop.url}/test/bank`, bank)).json()) as { returnUrl: string }
    expect(new URL(returnUrl).searchParams.get('orderId')).toBe(String(order.id))
    return returnUrl
  }

  it('finishes a redirect payment on the return page; a reload asks the back end, which answers from its ledger', async () => {
    const returnUrl = await returnFromBank()
    const before = await calls()

    const first = mount({ url: returnUrl })
    expect(await first.nextResult()).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
    first.checkout.destroy()
    // The reload: the same address. Its details reach the back end again, the service once.
    const again = mount({ url: returnUrl })
    expect(await again.nextResult()).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
    again.checkout.destroy()
    const after = await calls()
    expect(after['/api/payment-details']).toBe((before['/api/payment-details'] ?? 0) + 2)
    expect(after['service details']).toBe((before['service details'] ?? 0) + 1)
  })

  it('finishes the return page where the browser refuses its storage (cookies blocked)', async () => {
    const returnUrl = await returnFromBank()
    // What a browser with cookies blocked does: reading sessionStorage throws.
    const storage = Object.getOwnPropertyDescriptor(window, 'sessionStorage')!
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError')
      },
    })
    try {
      const page = mount({ url: returnUrl })
      expect(await page.nextResult()).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
      page.checkout.destroy()
    } finally {
      Object.defineProperty(window, 'sessionStorage', storage)
    }
  })

  it('keeps a paid result when the shop’s own callbacks throw, and reports their errors', async () => {
    const reported: unknown[] = []
    const report = (event: ErrorEvent) => {
      event.preventDefault()
      reported.push(event.error)
    }
    window.addEventListener('error', report)
    try {
      const seen: string[] = []
      const page = mount({
        order: await newOrder(),
        onEvent: (event) => {
          seen.push(event.type)
          throw new Error('the shop’s analytics failed')
        },
      })
      await typeCard(shop.cards.frictionless)
      await pressPay(page)
      expect(await page.nextResult()).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
      expect($('status').textContent).toBe(EN.paid)
      expect(page.pay.disabled).toBe(true)
      // Each event told and each throw reported: ready, submit, the card's 3-D Secure step and the result.
      await expect.poll(() => reported.length).toBe(seen.length)
      expect(seen).toEqual(['ready', 'submit', 'action', 'result'])
      for (const error of reported) expect(String(error)).toContain('the shop’s analytics failed')
      expect(page.results).toHaveLength(1)
      page.checkout.destroy()
    } finally {
      window.removeEventListener('error', report)
    }
  })

  it('destroy() during a challenge ends it: its frame goes, and the destroyed checkout says nothing more', async () => {
    const page = mount({ order: await newOrder() })
    await typeCard(shop.cards.challenge)
    await pressPay(page)
    await expect.poll(() => $('bank').querySelector('iframe[name^="threeds-challenge"]')).not.toBeNull()
    page.checkout.destroy()
    await expect.poll(() => $('bank').querySelector('iframe')).toBeNull()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(page.results).toEqual([])
    expect(page.events.map((event) => event.type)).not.toContain('result')
  })

  it('says the outcome is to come, never "no money was taken", when the payment’s answer cannot be read', async () => {
    const page = mount({ order: await newOrder() })
    await typeCard(shop.cards.frictionless)
    const realFetch = window.fetch
    // The back end answered 200 and the connection dropped in its body.
    window.fetch = async (input, init) => {
      const answer = await realFetch(input, init)
      return String(input).endsWith('/api/payments') ? new Response('{"resultCode":"Autho', { status: 200 }) : answer
    }
    try {
      await pressPay(page)
      expect(await page.nextResult()).toEqual({ kind: 'pending', message: EN.pending, code: 'OUTCOME_PENDING' })
      expect(page.pay.disabled).toBe(true)
    } finally {
      window.fetch = realFetch
    }
    page.checkout.destroy()
  })

  it('destroy() while Pay waits for the card sends nothing, and gives the form back', async () => {
    const page = mount({ order: await newOrder() })
    await page.checkout.ready
    const before = (await calls())['/api/payments'] ?? 0
    let encrypted!: (method: object) => void
    const pay = page.checkout.pay(new Promise<object>((resolve) => (encrypted = resolve)))
    expect(page.pay.disabled).toBe(true)
    page.checkout.destroy() // a framework unmounting while the card is encrypted
    encrypted({ type: 'scheme', encryptedCard: 'not sent' })
    await pay
    // A pay() later on the destroyed instance (a reference a click handler kept) starts nothing either.
    await page.checkout.pay({ type: 'scheme', encryptedCard: 'not sent either' })
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await calls())['/api/payments'] ?? 0).toBe(before)
    expect(page.pay.disabled).toBe(false)
    expect($<HTMLInputElement>('number').disabled).toBe(false)
    expect(page.results).toEqual([])
  })

  it('says nothing more from a destroyed checkout: a page mounted twice (Strict Mode) hears one result', async () => {
    const returnUrl = await returnFromBank()
    const before = (await calls())['/api/payment-details'] ?? 0
    const first = mount({ url: returnUrl })
    first.checkout.destroy()
    const second = mount({ url: returnUrl })
    expect(await second.nextResult()).toEqual({ kind: 'paid', message: EN.paid, code: 'Authorised' })
    // Both mounts sent their details; the first one's answer is in too, and went nowhere.
    await expect.poll(async () => (await calls())['/api/payment-details']).toBe(before + 2)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(first.results).toEqual([])
    second.checkout.destroy()
  })

  it('speaks the chosen locale, with any word the shop changes laid over it', async () => {
    const page = mount({ order: await newOrder(), messages: { ...AR, fix: 'Own words.' } })
    await pressPay(page)
    expect($('status').textContent).toBe('Own words.')
    await typeCard(shop.cards.refused)
    await pressPay(page)
    expect(await page.nextResult()).toEqual({ kind: 'refused', message: AR.refused, code: 'Refused' })
    page.checkout.destroy()
  })
})
