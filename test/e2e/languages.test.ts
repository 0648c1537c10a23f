/**
 * The demo's checkout in German and in Arabic, in Chromium, Firefox and WebKit: card-fields' words
 * from the chosen locale entry; an Arabic page right to left with the card number, expiry and code
 * still left to right (grouped and typed in order), and axe-core passing on it. Each engine keeps a
 * screenshot of the Arabic checkout in test-results/demo (the one in docs/checkout-ar.png is Chromium's).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { numberVerdict } from 'card-jwe'
import { messages as arabic } from '@card-jwe/card-fields/locales/ar'
import { messages as german } from '@card-jwe/card-fields/locales/de'
import { wantedEngines } from '../support/browsers.ts'
import { BLOCKING, runAxe } from './axe-runner.ts'
import { SCREENSHOT_DIR, startDemoStack, type DemoStack } from './demo-stack.ts'
import { openShopCheckout, shopperOfBlock } from './engine-shopper.ts'
import type { ShopperBrowser } from './shopper-browsers.ts'

const VISA = '4111111111111111'

let stack: DemoStack
beforeAll(async () => {
  stack = await startDemoStack({ launchChromium: false })
}, 60_000)
afterAll(() => stack?.close())

describe.each([...wantedEngines()])('the checkout in %s, in German and Arabic', (engine) => {
  const current = shopperOfBlock(engine)
  let shopper: ShopperBrowser
  beforeEach(() => {
    shopper = current()
  })
  const openCheckout = (query: string) => openShopCheckout(shopper, `${stack.shop.url}/${query}`)
  const blocking = async () => (await runAxe(shopper)).filter((v) => BLOCKING.has(v.impact))

  it('Arabic: the page right to left, the card inputs left to right, card-fields’ words Arabic, axe passing', async () => {
    await openCheckout('?lang=ar')
    const directions = () =>
      shopper.evaluate(() => ({
        lang: document.documentElement.lang,
        page: getComputedStyle(document.body).direction,
        inputs: ['#card-number', '#card-expiry', '#card-cvc', '#card-holder'].map(
          (s) => getComputedStyle(document.querySelector(s)!).direction,
        ),
      }))
    expect(await directions()).toEqual({ lang: 'ar', page: 'rtl', inputs: ['ltr', 'ltr', 'ltr', 'rtl'] })
    expect(await blocking()).toEqual([])
    await shopper.type('#card-number', VISA)
    expect(await shopper.value('#card-number')).toBe('4111 1111 1111 1111')
    expect(await shopper.evaluate(() => (document.querySelector('#card-number') as HTMLInputElement).selectionStart)).toBe(19)
    await shopper.click('#pay')
    await shopper.waitFor('#card-expiry-error')
    expect(await shopper.text('#card-expiry-error')).toBe(arabic.errors.expiry.required)
    expect(await shopper.text('#card-cvc-label')).toBe(arabic.securityCodeLabel(numberVerdict(VISA).brand!.code))
    expect(await blocking()).toEqual([])
    await shopper.screenshot(join(SCREENSHOT_DIR, `${engine}-checkout-ar.png`))
  })

  it('German from the language form: card-fields’ words German, the page left to right', async () => {
    await openCheckout('')
    expect(await shopper.evaluate(() => document.documentElement.lang)).toBe('en')
    await shopper.evaluate(() => {
      ;(document.querySelector('#language') as HTMLSelectElement).value = 'de'
    })
    await shopper.click('#language-form button')
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    expect(new URL(await shopper.url()).searchParams.get('lang')).toBe('de')
    await shopper.click('#start-checkout')
    await shopper.waitFor('#card-number')
    expect(await shopper.evaluate(() => [document.documentElement.lang, getComputedStyle(document.body).direction])).toEqual(['de', 'ltr'])
    await shopper.click('#pay')
    await shopper.waitFor('#card-number-error')
    expect(await shopper.text('#card-number-error')).toBe(german.errors.number.required)
    expect(await shopper.text('#card-cvc-label')).toBe(german.securityCodeLabel(undefined))
    expect(await blocking()).toEqual([])
  })
})
