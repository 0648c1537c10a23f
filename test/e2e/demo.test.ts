/**
 * The demo shop in real Chromium: the flows a shopper and a shop owner go through, with
 * screenshots of checkout, challenge and result saved in test-results/demo, and no console error
 * or CSP violation allowed in any of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answerChallenge } from '@card-jwe/sandbox'
import { messages as FLOW_EN } from '@card-jwe/checkout/locales/en'
import { EXPECTED_CARD_JWE_HEADER } from '@card-jwe/testkit/capture'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { openCheckout, result, typeCard } from './checkout-steps.js'
import { startDemoStack, type DemoStack } from './demo-stack.js'

let stack: DemoStack
beforeAll(async () => {
  stack = await startDemoStack()
}, 60_000)
afterAll(() => stack?.close())

describe('checkout in Chromium', () => {
  it('pays with a standard test card: Authorised, fields cleared; the card left the page only in a fresh JWE', async () => {
    const { page, problems, capture } = await stack.page()
    await openCheckout(page, stack.shop.url)
    const card = findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'authorised' })
    await typeCard(page, card, 'A. Shopper')
    expect(await page.inputValue('#card-number')).toBe(card.number.replace(/(\d{4})(?=\d)/g, '$1 '))
    expect(await page.textContent('#card-brand')).toBe('Mastercard')
    await stack.screenshot(page, 'standard-checkout')
    await page.getByRole('button', { name: /^Pay/ }).click()
    const sent = await capture.nextCard('**/api/payments', { typed: { ...card, holderName: 'A. Shopper' } })
    expect(sent.protectedHeader).toEqual(EXPECTED_CARD_JWE_HEADER)
    const shown = await result(page)
    expect(shown).toMatchObject({ code: 'Authorised', order: expect.stringMatching(/^order-\d{8}-[0-9a-f]{8} \(order \d+\)$/) })
    await stack.screenshot(page, 'standard-result')
    expect(await page.inputValue('#card-number')).toBe('')
    capture.expectNoCardDigits()
    expect(problems).toEqual([])
  })

  it.each([
    ['approve', 'Authorised'],
    ['refuse', 'Refused'],
  ] as const)('3-D Secure challenge, %s: %s', async (answer, code) => {
    const { page, problems, capture } = await stack.page()
    await openCheckout(page, stack.shop.url)
    const card = findTestCard({ brand: 'visa', threeDSecure: 'challenge' })
    await typeCard(page, card, 'A. Shopper')
    await page.getByRole('button', { name: /^Pay/ }).click()
    expect((await capture.nextCard('**/api/payments', { typed: card })).protectedHeader).toEqual(EXPECTED_CARD_JWE_HEADER)
    await page
      .frameLocator('iframe[name^="threeds-challenge"]')
      .getByLabel(/Password/)
      .waitFor()
    await stack.screenshot(page, `challenge-${code.toLowerCase()}`)
    await answerChallenge(page, answer)
    expect((await result(page)).code).toBe(code)
    await stack.screenshot(page, `challenge-${code.toLowerCase()}-result`)
    capture.expectNoCardDigits()
    expect(problems).toEqual([])
  })

  it('after a refused card, "Try another card or method" pays the same order', async () => {
    const { page, problems } = await stack.page()
    await openCheckout(page, stack.shop.url)
    await typeCard(page, findTestCard({ brand: 'mastercard', threeDSecure: 'none', outcome: 'refused' }), 'A. Shopper')
    await page.getByRole('button', { name: /^Pay/ }).click()
    const refused = await result(page)
    expect(refused.code).toBe('Refused')
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height })
      await stack.screenshot(page, `retry-after-refused-${width}`)
    }
    await page.getByRole('button', { name: 'Try another card or method' }).click()
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number')
    expect(await page.textContent('#order-summary')).toContain(refused.order.split(' ')[0])
    expect(await page.inputValue('#card-number')).toBe('')
    await typeCard(page, findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await page.getByRole('button', { name: /^Pay/ }).click()
    expect(await result(page)).toMatchObject({ code: 'Authorised', order: refused.order })
    expect(await page.locator('#retry-payment').isHidden()).toBe(true)
    expect(problems).toEqual([])
  })

  it('a cancel at the bank reads as a cancel, and the order can still be paid', async () => {
    const { page, problems } = await stack.page()
    await openCheckout(page, stack.shop.url)
    await page.getByRole('button', { name: 'pay with iDEAL' }).click()
    await page.getByRole('button', { name: 'Cancel' }).click()
    const cancelled = await result(page)
    expect(cancelled).toMatchObject({ title: FLOW_EN.notFinished, code: 'Cancelled' })
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height })
      await stack.screenshot(page, `retry-after-cancel-${width}`)
    }
    await page.getByRole('button', { name: 'Try another card or method' }).click()
    await typeCard(page, findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await page.getByRole('button', { name: /^Pay/ }).click()
    expect(await result(page)).toMatchObject({ code: 'Authorised', order: cancelled.order })
    expect(problems).toEqual([])
  })

  it('one payment attempt at a time: "pay with iDEAL" and Pay are disabled during a challenge', async () => {
    const { page, problems } = await stack.page()
    await openCheckout(page, stack.shop.url)
    await typeCard(page, findTestCard({ brand: 'visa', threeDSecure: 'challenge' }), 'A. Shopper')
    await page.getByRole('button', { name: /^Pay/ }).click()
    await page
      .frameLocator('iframe[name^="threeds-challenge"]')
      .getByLabel(/Password/)
      .waitFor()
    expect(await page.getByRole('button', { name: 'pay with iDEAL' }).isDisabled()).toBe(true)
    expect(await page.getByRole('button', { name: /^Pay/ }).isDisabled()).toBe(true)
    await page.getByRole('button', { name: 'pay with iDEAL' }).click({ force: true }) // a click that gets through anyway changes nothing
    await answerChallenge(page, 'approve')
    expect((await result(page)).code).toBe('Authorised')
    expect(problems).toEqual([])
  })

  it('Back from the bank page offers the same order again, and a card pays it', async () => {
    const { page, problems } = await stack.page()
    await openCheckout(page, stack.shop.url)
    const summary = (await page.textContent('#order-summary'))!
    await page.getByRole('button', { name: 'pay with iDEAL' }).click()
    await page.getByRole('heading', { name: /Sandbox bank/ }).waitFor()
    await page.goBack()
    await page.getByLabel('Card number').waitFor()
    expect(await page.textContent('#order-summary')).toBe(summary)
    expect(await page.textContent('#status')).toBe(FLOW_EN.notFinished)
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height })
      await stack.screenshot(page, `back-from-bank-${width}`)
    }
    await typeCard(page, findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await page.getByRole('button', { name: /^Pay/ }).click()
    expect((await result(page)).order.split(' ')[0]).toBe(/^Order (\S+):/.exec(summary)![1])
    expect(problems).toEqual([])
  })

  it.each([
    [390, 844],
    [1280, 800],
  ] as const)(
    'at %i px: no sideways scroll, blur errors announced, focus on the status after Pay and in the challenge, shown in view',
    async (width, height) => {
      const { page, problems } = await stack.page()
      await page.setViewportSize({ width, height })
      await openCheckout(page, stack.shop.url)
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
      const cvc = await page.locator('#card-cvc').boundingBox()
      expect(cvc!.x + cvc!.width).toBeLessThanOrEqual(width)
      await page.getByLabel('Card number').pressSequentially('4111')
      await page.keyboard.press('Tab') // leaving the field shows its error, and the live region says it
      expect(await page.textContent('#status')).toContain('Card number: The card number is incomplete.')
      await page.getByLabel('Card number').fill('')
      await typeCard(page, findTestCard({ brand: 'visa', threeDSecure: 'challenge' }), 'A. Shopper')
      await stack.screenshot(page, `phone-checkout-${width}`)
      await page.getByRole('button', { name: /^Pay/ }).click()
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('status')
      await page
        .frameLocator('iframe[name^="threeds-challenge"]')
        .getByLabel(/Password/)
        .waitFor()
      await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME')
      const frame = await page.evaluate(() => {
        const rect = document.querySelector('#threeds iframe')!.getBoundingClientRect()
        return { top: rect.top, viewport: innerHeight }
      })
      expect(frame.top).toBeGreaterThanOrEqual(0)
      expect(frame.top).toBeLessThan(frame.viewport / 2)
      await stack.screenshot(page, `phone-challenge-${width}`)
      await answerChallenge(page, 'approve')
      expect((await result(page)).code).toBe('Authorised')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('result-title')
      expect(problems).toEqual([])
    },
  )

  it('follows a redirect method (iDEAL) to the bank and back', async () => {
    const { page, problems } = await stack.page()
    await openCheckout(page, stack.shop.url)
    await page.getByRole('button', { name: 'pay with iDEAL' }).click()
    await page.getByRole('heading', { name: /Sandbox bank/ }).waitFor()
    await stack.screenshot(page, 'redirect-bank')
    await page.getByRole('button', { name: 'Approve' }).click()
    expect((await result(page)).code).toBe('Authorised')
    expect(new URL(page.url()).search).toBe('')
    expect(problems).toEqual([])
  })

  it('pays by iDEAL where the browser refuses its storage (cookies blocked): to the bank and back', async () => {
    const { page, problems } = await stack.page()
    // What a browser with cookies blocked does on every page: reading sessionStorage throws.
    await page.addInitScript(() => {
      Object.defineProperty(window, 'sessionStorage', {
        configurable: true,
        get: () => {
          throw new DOMException('The operation is insecure.', 'SecurityError')
        },
      })
    })
    await openCheckout(page, stack.shop.url)
    await page.getByRole('button', { name: 'pay with iDEAL' }).click()
    await page.getByRole('heading', { name: /Sandbox bank/ }).waitFor()
    await page.getByRole('button', { name: 'Approve' }).click()
    expect((await result(page)).code).toBe('Authorised')
    expect(problems).toEqual([])
  })

  it('stops invalid entries in the browser without sending anything', async () => {
    const { page, problems } = await stack.page()
    await openCheckout(page, stack.shop.url)
    const sent: string[] = []
    page.on('request', (request) => request.url().includes('/api/payment') && sent.push(request.url()))
    await page.getByLabel('Card number').pressSequentially('4111 1111 4555 1143')
    await page.getByLabel('Expiry date (MM/YY)').pressSequentially('0025') // "13" would become 01/3: month 00 is the one left to refuse
    await page
      .locator('#card-form')
      .getByLabel(/Security code/)
      .fill('73')
    await page.getByRole('button', { name: /^Pay/ }).click()
    await expect.poll(() => page.textContent('#card-number-error')).toBe('Check the card number.')
    expect(await page.textContent('#card-expiry-error')).toBe('The month must be 01 to 12.')
    expect(await page.textContent('#card-cvc-error')).toBe('The security code is incomplete.')
    expect(await page.getAttribute('#card-number', 'aria-invalid')).toBe('true')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('card-number')
    await stack.screenshot(page, 'invalid-entries')
    expect(sent).toEqual([])
    expect(problems).toEqual([])
  })

  it('has the backend refuse an amount tampered with in the browser’s request', async () => {
    const { page, problems } = await stack.page()
    await openCheckout(page, stack.shop.url)
    await page.route('**/api/payments', async (route) => {
      const body = JSON.parse(route.request().postData()!) as { amount: { value: number } }
      body.amount.value = 1
      await route.continue({ postData: JSON.stringify(body) })
    })
    await typeCard(page, findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }), 'A. Shopper')
    await page.getByRole('button', { name: /^Pay/ }).click()
    // The back end's code, and the package's words for it: the order changed.
    expect(await result(page)).toMatchObject({ code: 'ORDER_MISMATCH', title: FLOW_EN.order })
    expect(stack.shopLog).toContain('POST /api/payments 422')
    // The browser's console shows the failed request (422); nothing else may appear.
    expect(problems.filter((p) => !p.includes('422'))).toEqual([])
  })

  it('captures, refunds and cancels from the admin page; each state offers only what it can take, in words, updated at once', async () => {
    const { page, problems } = await stack.page()
    const paid: string[] = []
    for (let i = 0; i < 2; i++) {
      await openCheckout(page, stack.shop.url)
      await typeCard(page, findTestCard({ brand: 'american-express', threeDSecure: 'none' }), 'A. Shopper')
      await page.getByRole('button', { name: /^Pay/ }).click()
      paid.push((await result(page)).order.split(' ')[0]!)
    }
    await page.goto(`${stack.shop.url}/admin.html`)
    await page.waitForSelector('body[data-ready="true"]')
    const row = (reference: string) => page.locator('#orders tr', { hasText: reference })
    const state = (reference: string) => row(reference).locator('td').nth(2).textContent()
    const offered = (reference: string) => row(reference).getByRole('button').allTextContents()
    expect(await state(paid[0]!)).toBe('Authorised')
    expect(await offered(paid[0]!)).toEqual(['Capture', 'Cancel'])

    await row(paid[0]!).locator('input').fill('5.00')
    await row(paid[0]!).getByRole('button', { name: 'Capture' }).click()
    // No Refresh: the table follows the action.
    await expect.poll(() => state(paid[0]!)).toBe('Partly captured')
    // The status line is written once the whole page is redrawn (the problems list too), after the table.
    await expect.poll(() => page.textContent('#status')).toBe(`Capture requested for ${paid[0]}; now: Partly captured.`)
    expect(await row(paid[0]!).locator('td').nth(3).textContent()).toBe('€5.00')
    expect(await offered(paid[0]!)).toEqual(['Capture', 'Refund', 'Refund line'])
    await row(paid[1]!).getByRole('button', { name: 'Cancel' }).click()
    await expect.poll(() => state(paid[1]!)).toBe('Cancelled')
    expect(await offered(paid[1]!)).toEqual([])

    // A refusal names the order: more refunded than captured.
    await row(paid[0]!).locator('input').fill('9.00')
    await row(paid[0]!)
      .getByRole('button', { name: `Refund ${paid[0]}`, exact: true })
      .click()
    await expect.poll(() => page.textContent('#status')).toMatch(new RegExp(`^Refund ${paid[0]}: `))
    await row(paid[0]!).locator('input').fill('2.00')
    await row(paid[0]!)
      .getByRole('button', { name: `Refund ${paid[0]}`, exact: true })
      .click()
    await expect.poll(() => state(paid[0]!)).toBe('Partly refunded')
    expect(await row(paid[0]!).locator('td').nth(4).textContent()).toBe('€2.00')
    expect(await offered(paid[0]!)).toEqual(['Refund', 'Refund line'])
    expect(await page.locator('td[data-state="partially_refunded"]').count()).toBeGreaterThanOrEqual(1)
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height })
      await stack.screenshot(page, `admin-orders-${width}`)
    }
    expect(problems.filter((p) => !p.includes('status of 4'))).toEqual([])
  })

  it('with the ready-made store the admin says the shop is ready, no "Step 1" to connect an account', async () => {
    const { page, problems } = await stack.page()
    for (const [width, height] of [
      [390, 844],
      [1280, 800],
    ] as const) {
      await page.setViewportSize({ width, height })
      await page.goto(`${stack.shop.url}/admin.html`)
      await page.locator('#step-done').waitFor()
      expect(await page.textContent('#setup-summary')).toBe('Ready to take payments (ready-made test store).')
      expect(await page.textContent('#done-summary')).toMatch(/^Quick start: the sandbox's ready-made store \S+ is onboarded/)
      expect(await page.locator('#step-email').isHidden()).toBe(true)
      expect(await page.textContent('body')).not.toContain('Step 1')
      await stack.screenshot(page, `admin-ready-made-${width}`)
    }
    expect(problems).toEqual([])
  })

  it('reported no CSP violation to the shop', () => {
    expect(stack.shopLog.filter((line) => line.includes('CSP violation'))).toEqual([])
  })
})
