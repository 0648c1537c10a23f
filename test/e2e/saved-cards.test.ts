/**
 * Saved cards on the demo, in Chromium, Firefox and WebKit: the test shopper signs in, saves a card
 * while paying, and pays the next order with it by typing the security code alone (also a saved card
 * that gets a 3-D Secure challenge); the account page removes a card; the admin renews a paid order
 * on the saved card without the shopper, charged once. One demo stack and one browser per engine, the
 * steps in order (each builds on the cards the one before saved).
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard, type TestCard } from '@card-jwe/testkit/test-cards'
import { messages as germanFields } from '@card-jwe/card-fields/locales/de'
import { messages as germanFlow } from '@card-jwe/checkout/locales/de'
import { savedCardBrand } from 'card-jwe'
import { SHOP_WORDS } from '../../apps/demo/src/front/shop-words.js'
import { launchChromiumShopper } from './chromium-shopper.js'
import { startDemoStack, type DemoStack } from './demo-stack.js'
import { launchShopper, typeTestCard, type ShopperBrowser } from './shopper-browsers.js'
import { wantedEngines } from '../support/browsers.js'

const STANDARD = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })
const CHALLENGED = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
const lastFour = (card: TestCard) => card.number.slice(-4)

type Shopper = Omit<ShopperBrowser, 'engine'>
const engines = (['chromium', 'firefox', 'webkit'] as const).filter((engine) => wantedEngines().has(engine))

describe.each(engines)('saved cards on the demo in %s', (engine) => {
  let stack: DemoStack
  let shopper: Shopper

  beforeAll(async () => {
    stack = await startDemoStack({ launchChromium: false })
    shopper = engine === 'chromium' ? await launchChromiumShopper() : await launchShopper(engine)
  }, 60_000)
  afterAll(async () => {
    await shopper?.close()
    await stack?.close()
  })

  /** The basket, then "Continue to payment": the checkout once its order is shown (saved cards or the card form). */
  async function checkout(): Promise<void> {
    await shopper.open(stack.shop.url)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    await shopper.click('#start-checkout')
    // The section shows once the order's saved cards are known.
    await shopper.waitFor('#order-summary')
  }

  async function result(): Promise<{ code: string; order: string }> {
    await shopper.waitFor('#result')
    return { code: await shopper.text('#result-code'), order: (await shopper.text('#result-order')).split(' ')[0]! }
  }

  /** Payments the sandbox holds for an order reference: the one count that says "charged once". */
  async function paymentsAtSandbox(reference: string): Promise<Array<{ resultCode: string }>> {
    const answer = await fetch(`${stack.sandbox.baseUrl}/sandbox/payments?reference=${encodeURIComponent(reference)}`)
    return ((await answer.json()) as { payments: Array<{ resultCode: string }> }).payments
  }

  it('signed in, the shopper ticks "Save my card" while paying by card: Authorised', async () => {
    await shopper.open(stack.shop.url)
    await shopper.waitFor('#sign-in')
    await shopper.click('#sign-in')
    await shopper.waitFor('#sign-out')
    expect(await shopper.evaluate(() => document.activeElement?.id)).toBe('sign-out')
    await checkout()
    // No saved card yet: the card form, with the box to save it.
    expect(await shopper.evaluate(() => (document.querySelector('#saved-card-form') as HTMLElement).hidden)).toBe(true)
    await shopper.waitFor('#save-card')
    await typeTestCard(shopper, STANDARD)
    await shopper.click('#save-card')
    await shopper.click('#pay')
    expect((await result()).code).toBe('Authorised')
  })

  it('the next order offers the saved card first; only its security code typed, it pays: Authorised', async () => {
    await checkout()
    await shopper.waitFor('#saved-card-cvc')
    const offered = await shopper.evaluate(() => ({
      choices: [...document.querySelectorAll('#saved-card-list label')].map((label) => label.textContent?.trim()),
      checked: (document.querySelector('input[name="saved-card"]:checked') as HTMLInputElement | null)?.id,
      cardFormHidden: (document.querySelector('#card-form') as HTMLElement).hidden,
      focused: document.activeElement?.id,
      codeLabel: document.querySelector('#saved-card-cvc-label')?.textContent,
    }))
    expect(offered).toEqual({
      choices: [`Visa ending in ${lastFour(STANDARD)}, expires ${STANDARD.expiryMonth}/${STANDARD.expiryYear}`, 'A new card'],
      checked: 'saved-card-0',
      cardFormHidden: true,
      focused: 'saved-card-0',
      codeLabel: expect.stringMatching(/^Security code/),
    })
    // Pay without the code: its error is shown, tied to the field, and the focus goes there.
    await shopper.click('#pay-saved')
    await shopper.waitFor('#saved-card-cvc-error')
    expect(
      await shopper.evaluate(() => {
        const field = document.querySelector('#saved-card-cvc')!
        return [document.activeElement?.id, field.getAttribute('aria-invalid'), field.getAttribute('aria-describedby')]
      }),
    ).toEqual(['saved-card-cvc', 'true', 'saved-card-cvc-error'])
    expect(await shopper.text('#saved-card-cvc-error')).toBe('Enter the security code.')
    await shopper.type('#saved-card-cvc', STANDARD.securityCode)
    await shopper.click('#pay-saved')
    const paid = await result()
    expect(paid.code).toBe('Authorised')
    expect(await paymentsAtSandbox(paid.order)).toEqual([expect.objectContaining({ resultCode: 'Authorised' })])
    expect(await shopper.value('#saved-card-cvc')).toBe('')
    // Without the shopper's session the order is not there: its id lists no saved cards to anyone else.
    const orderId = /\(order (\d+)\)/.exec(await shopper.text('#result-order'))![1]
    const elsewhere = await fetch(`${stack.shop.url}/api/config?orderId=${orderId}`)
    expect([elsewhere.status, ((await elsewhere.json()) as { error: string }).error]).toEqual([404, 'ORDER_NOT_FOUND'])
  })

  it('in German the saved card’s choice and its code field speak German (card-fields’ German words)', async () => {
    await shopper.open(`${stack.shop.url}/?lang=de`)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    await shopper.click('#start-checkout')
    await shopper.waitFor('#saved-card-cvc')
    expect(await shopper.text('#saved-card-cvc-label')).toBe(germanFields.securityCodeLabel(savedCardBrand('visa')!.code))
    expect(await shopper.text('#saved-card-legend')).toBe(SHOP_WORDS.de.texts['saved-card-legend'])
    expect((await shopper.text('label[for="saved-card-new"]')).trim()).toBe(SHOP_WORDS.de.newCard)
    await shopper.click('#pay-saved')
    await shopper.waitFor('#saved-card-cvc-error')
    expect(await shopper.text('#saved-card-cvc-error')).toBe(germanFields.errors.securityCode.required)
    expect(await shopper.text('#status')).toBe(germanFlow.fix)
  })

  it('a saved card that gets a 3-D Secure challenge: saved through "A new card", then paid with its code and the challenge', async () => {
    await checkout()
    await shopper.waitFor('#saved-card-new')
    await shopper.click('#saved-card-new')
    await shopper.waitFor('#card-number')
    await typeTestCard(shopper, CHALLENGED)
    await shopper.click('#save-card')
    await shopper.click('#pay')
    await shopper.answerChallenge('password')
    expect((await result()).code).toBe('Authorised')

    await checkout()
    await shopper.waitFor(`input[data-last-four="${lastFour(CHALLENGED)}"]`)
    await shopper.click(`input[data-last-four="${lastFour(CHALLENGED)}"]`)
    await shopper.type('#saved-card-cvc', CHALLENGED.securityCode)
    await shopper.click('#pay-saved')
    await shopper.answerChallenge('password')
    const paid = await result()
    expect(paid.code).toBe('Authorised')
    expect(await paymentsAtSandbox(paid.order)).toEqual([expect.objectContaining({ resultCode: 'Authorised' })])
  })

  it('the account page lists both saved cards; Remove takes one away, and the checkout no longer offers it', async () => {
    await shopper.open(`${stack.shop.url}/account.html`)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    const cards = () => shopper.evaluate(() => [...document.querySelectorAll('#saved-cards li span')].map((span) => span.textContent))
    expect((await cards()).sort()).toEqual(
      [STANDARD, CHALLENGED].map((card) => `Visa ending in ${lastFour(card)}, expires ${card.expiryMonth}/${card.expiryYear}`).sort(),
    )
    await shopper.click(`button[aria-label^="Remove Visa ending in ${lastFour(CHALLENGED)}"]`)
    await expect.poll(cards, { timeout: 10_000 }).toHaveLength(1)
    expect(await cards()).toEqual([`Visa ending in ${lastFour(STANDARD)}, expires ${STANDARD.expiryMonth}/${STANDARD.expiryYear}`])
    expect(await shopper.text('#status')).toBe(
      `Visa ending in ${lastFour(CHALLENGED)}, expires ${CHALLENGED.expiryMonth}/${CHALLENGED.expiryYear} removed.`,
    )
    expect(await shopper.evaluate(() => document.activeElement?.id)).toBe('account-title')

    await checkout()
    await shopper.waitFor('#saved-card-cvc')
    const lastFours = await shopper.evaluate(() =>
      [...document.querySelectorAll<HTMLInputElement>('input[name="saved-card"]')].map((input) => input.dataset.lastFour ?? input.id),
    )
    expect(lastFours).toEqual([lastFour(STANDARD), 'saved-card-new'])
  })

  it('the admin renews a paid order on the saved card without the shopper: a new order, charged once', async () => {
    await shopper.open(`${stack.shop.url}/admin.html`)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    const renew = 'button[aria-label^="Renew subscription"]'
    await shopper.waitFor(renew)
    const renewed = await shopper.evaluate(() => {
      const row = document.querySelector('button[aria-label^="Renew subscription"]')!.closest('tr')!
      return { orderId: Number(row.dataset.orderId), reference: row.children[0]!.textContent! }
    })
    await shopper.click(renew)
    await expect.poll(() => shopper.text('#status'), { timeout: 20_000 }).toMatch(/^Renewal of /)
    const said = await shopper.text('#status')
    const card = `the saved card ending in ${lastFour(STANDARD)} \\(visa\\)`
    const reference = new RegExp(`^Renewal of ${renewed.reference}: (order-\\S+) charged to ${card}: Authorised\\.$`).exec(said)?.[1]
    expect(reference, said).toBeDefined()
    expect(await paymentsAtSandbox(reference!)).toEqual([expect.objectContaining({ resultCode: 'Authorised' })])
    const rows = await shopper.evaluate(() => [...document.querySelectorAll('#orders tr')].map((tr) => tr.children[0]!.textContent))
    expect(rows).toContain(reference)

    // A click's request sent twice at once and once more (a retry after a lost answer): one order, one charge.
    const click = { orderId: renewed.orderId, requestId: randomUUID() }
    const send = async () => {
      const answer = await fetch(`${stack.shop.url}/api/admin/renewals`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(click),
      })
      return (await answer.json()) as { order: { reference: string }; resultCode: string }
    }
    const [first, second] = await Promise.all([send(), send()])
    const third = await send()
    expect(first.resultCode).toBe('Authorised')
    expect([second, third]).toEqual([first, first])
    expect(first.order.reference).not.toBe(reference)
    expect(await paymentsAtSandbox(first.order.reference)).toHaveLength(1)
  })
})
