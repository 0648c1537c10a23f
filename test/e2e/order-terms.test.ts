/**
 * The demo's order terms in Chromium, Firefox and WebKit: the buy-now-pay-later method (klarna) next
 * to iDEAL, paid through its sandbox page, and a card whose money is taken at payment because the
 * admin's store setting says so, the order then shown captured with no capture from the admin.
 */
import type { Page } from 'playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { startDemoStack, type DemoStack } from './demo-stack.js'
import { launchShopper, openShopperCheckout, typeTestCard, type ShopperBrowser } from './shopper-browsers.js'
import { wantedEngines } from '../support/browsers.js'

/** What these tests do in a page, the same in each engine. */
type Shopper = Pick<ShopperBrowser, 'open' | 'waitFor' | 'click' | 'type' | 'text' | 'url'>

/** A Playwright page in Chromium, driven as the WebDriver shoppers are. */
const chromiumShopper = (page: Page): Shopper => ({
  open: async (url) => void (await page.goto(url)),
  waitFor: async (selector, options = {}) =>
    void (await page.waitForSelector(selector, { state: options.attached ? 'attached' : 'visible', timeout: options.timeoutMs ?? 20_000 })),
  click: (selector) => page.click(selector),
  type: (selector, text) => page.locator(selector).pressSequentially(text),
  text: async (selector) => (await page.textContent(selector)) ?? '',
  url: async () => page.url(),
})

const card = findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' })

describe.each([...wantedEngines()])('klarna and money taken at payment in %s', (engine) => {
  let stack: DemoStack
  let shopper: Shopper
  let close: () => Promise<void> = async () => {}

  beforeAll(async () => {
    stack = await startDemoStack({ launchChromium: engine === 'chromium' })
    if (engine === 'chromium') shopper = chromiumShopper((await stack.page()).page)
    else {
      const browser = await launchShopper(engine)
      shopper = browser
      close = () => browser.close()
    }
  }, 60_000)
  afterAll(async () => {
    await close()
    await stack?.close()
  })

  const openCheckout = () => openShopperCheckout(shopper, stack.shop.url)

  async function resultCode(): Promise<string> {
    await shopper.waitFor('#result')
    return shopper.text('#result-code')
  }

  it('pays with klarna, offered next to iDEAL: its page approves, Authorised', async () => {
    await openCheckout()
    await shopper.waitFor('#pay-ideal')
    await shopper.click('#pay-klarna')
    await shopper.waitFor('form[action$="/approve"] button')
    expect(await shopper.url()).toMatch(new RegExp(`^${stack.sandbox.baseUrl}/redirect/`))
    expect(await shopper.text('h1')).toBe('Sandbox pay later (klarna)')
    await shopper.click('form[action$="/approve"] button')
    expect(await resultCode()).toBe('Authorised')
  })

  it('takes a card payment at once when the admin says so: the order shows captured, at payment', async () => {
    await shopper.open(`${stack.shop.url}/admin.html`)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    await shopper.click('#capture-at-once')
    await shopper.click('#save-capture-timing')
    await expect.poll(() => shopper.text('#status')).toBe('New orders: money is taken at payment.')

    await openCheckout()
    await typeTestCard(shopper as ShopperBrowser, card)
    await shopper.click('#pay')
    expect(await resultCode()).toBe('Authorised')
    const orderId = /\(order (\d+)\)/.exec(await shopper.text('#result-order'))![1]!
    await stack.shop.poll()

    await shopper.open(`${stack.shop.url}/admin.html`)
    await shopper.waitFor(`tr[data-order-id="${orderId}"] td[data-state="captured"]`, { attached: true })
    expect(await shopper.text(`tr[data-order-id="${orderId}"]`)).toContain('at payment')
  })
})
