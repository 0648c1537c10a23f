/**
 * The demo's checkout in German and in Arabic, in Chromium, Firefox and WebKit: the flow's words
 * (@card-jwe/checkout's locale), card-fields' and the shop's own from the chosen language; an Arabic
 * page right to left with the card number, expiry and code still left to right (grouped and typed
 * in order), and axe-core passing on it; the language kept across the bank's redirect. Each engine
 * keeps a screenshot of the Arabic checkout in test-results/demo (the one in docs/checkout-ar.png is Chromium's).
 */
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { numberVerdict } from 'card-jwe'
import { messages as arabic } from '@card-jwe/card-fields/locales/ar'
import { messages as german } from '@card-jwe/card-fields/locales/de'
import { messages as arabicFlow } from '@card-jwe/checkout/locales/ar'
import { messages as germanFlow } from '@card-jwe/checkout/locales/de'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { SHOP_WORDS } from '../../apps/demo/src/front/shop-words.ts'
import { wantedEngines } from '../support/browsers.ts'
import { BLOCKING, runAxe } from './axe-runner.ts'
import { SCREENSHOT_DIR, startDemoStack, type DemoStack } from './demo-stack.ts'
import { openShopCheckout, shopperOfBlock } from './engine-shopper.ts'
import { typeTestCard, type ShopperBrowser } from './shopper-browsers.ts'

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

  it('Arabic: the page right to left, the card inputs left to right, every word Arabic, axe passing', async () => {
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
    expect(await shopper.text('#status')).toBe(arabicFlow.fix)
    expect(await shopper.text('#card-number-label')).toBe(SHOP_WORDS.ar.texts['card-number-label'])
    expect(await shopper.text('#cancel-challenge')).toBe(SHOP_WORDS.ar.texts['cancel-challenge'])
    expect(await shopper.text('#pay')).toMatch(/^ادفع /)
    expect(await shopper.text('#card-cvc-label')).toBe(arabic.securityCodeLabel(numberVerdict(VISA).brand!.code))
    expect(await blocking()).toEqual([])
    await shopper.screenshot(join(SCREENSHOT_DIR, `${engine}-checkout-ar.png`))
  })

  it('German from the language form: the flow’s, card-fields’ and the shop’s words German, the page left to right', async () => {
    await openCheckout('')
    expect(await shopper.evaluate(() => document.documentElement.lang)).toBe('en')
    await shopper.evaluate(() => {
      ;(document.querySelector('#language') as HTMLSelectElement).value = 'de'
    })
    await shopper.click('#language-form button')
    // The old page stays ready until the form's navigation replaces it: wait for the German one.
    await shopper.waitFor('html[lang="de"] body[data-ready="true"]', { attached: true })
    expect(new URL(await shopper.url()).searchParams.get('lang')).toBe('de')
    expect(await shopper.text('#start-checkout')).toBe(SHOP_WORDS.de.texts['start-checkout'])
    // The owner's notice, hidden while the shop is open, is in the page's language too.
    expect(await shopper.evaluate(() => document.getElementById('not-ready-title')?.textContent)).toBe(
      SHOP_WORDS.de.texts['not-ready-title'],
    )
    await shopper.click('#start-checkout')
    await shopper.waitFor('#card-number')
    expect(await shopper.evaluate(() => [document.documentElement.lang, getComputedStyle(document.body).direction])).toEqual(['de', 'ltr'])
    expect(await shopper.text('#checkout-title')).toBe('Zahlung')
    await shopper.click('#pay')
    await shopper.waitFor('#card-number-error')
    expect(await shopper.text('#card-number-error')).toBe(german.errors.number.required)
    expect(await shopper.text('#card-cvc-label')).toBe(german.securityCodeLabel(undefined))
    expect(await shopper.text('#status')).toBe(germanFlow.fix)
    expect(await blocking()).toEqual([])
  })

  it('German kept across the bank’s redirect: back from iDEAL, the result in German on a German page', async () => {
    await openCheckout('?lang=de')
    await shopper.click('#pay-ideal')
    await shopper.waitFor('form[action$="/approve"] button')
    await shopper.click('form[action$="/approve"] button')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-title')).toBe(germanFlow.paid)
    expect(await shopper.text('#result-code')).toBe('Authorised')
    expect(await shopper.evaluate(() => document.documentElement.lang)).toBe('de')
    expect(await shopper.text('#back-to-shop')).toBe(SHOP_WORDS.de.texts['back-to-shop'])
    expect(new URL(await shopper.url()).search).toBe('?lang=de')
  })

  it('Arabic: a challenge cancelled with the shop’s Arabic Cancel ends in the flow’s Arabic words', async () => {
    await openCheckout('?lang=ar')
    await typeTestCard(shopper, findTestCard({ brand: 'visa', threeDSecure: 'challenge' }))
    await shopper.click('#pay')
    await shopper.waitFor('iframe[name^="threeds-challenge"]')
    expect(await shopper.text('#status')).toBe(arabicFlow.challenge)
    // The bank's frame is named in Arabic too, as a screen reader reads it when focus enters.
    expect(await shopper.evaluate(() => document.querySelector('#threeds iframe')?.getAttribute('title'))).toBe(arabicFlow.challenge)
    await shopper.click('#cancel-challenge')
    await shopper.waitFor('#result')
    expect(await shopper.text('#result-title')).toBe(arabicFlow.notFinished)
    expect(await shopper.text('#result-code')).toBe('ERR_ABORTED')
    expect(await blocking()).toEqual([])
  })
})
