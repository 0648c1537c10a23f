/**
 * The demo's checkout against WCAG 2.2 AA in Chromium, Firefox and WebKit: axe-core on each step a
 * shopper sees (basket, empty form, every error shown, the 3-D Secure challenge, the result), no
 * serious or critical violation allowed; and by hand what axe cannot judge: every input named,
 * errors tied to their fields and announced once, the first error focused, a natural Tab order,
 * a visible focus, the challenge frame titled and focused.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { messages as englishFlow } from '@card-jwe/checkout/locales/en'
import { findTestCard } from '@card-jwe/testkit/test-cards'
import { wantedEngines } from '../support/browsers.ts'
import { BLOCKING, byImpact, runAxe } from './axe-runner.ts'
import { startDemoStack, type DemoStack } from './demo-stack.ts'
import {
  challengeFrame,
  countLiveRegionUpdates,
  focusOrder,
  inputsWithoutFocusIndicator,
  liveRegionUpdates,
  unnamedControls,
  untiedErrors,
} from './page-checks.ts'
import { openShopCheckout, shopperOfBlock } from './engine-shopper.ts'
import { typeTestCard, type ShopperBrowser } from './shopper-browsers.ts'

let stack: DemoStack
beforeAll(async () => {
  stack = await startDemoStack({ launchChromium: false })
}, 60_000)
afterAll(() => stack?.close())

// Every check is soft: a failing one does not hide the others' verdicts on the same page.

/** What axe found, per engine and page, printed once at the end as the run's record. */
const record: string[] = []
afterAll(() => console.info(`axe-core, violations by impact:\n${record.join('\n')}`))

describe.each([...wantedEngines()])('the checkout in %s meets WCAG 2.2 AA', (engine) => {
  const current = shopperOfBlock(engine)
  let shopper: ShopperBrowser
  beforeEach(() => {
    shopper = current()
  })

  /** axe on the page as it is: every serious or critical violation fails, named by rule, impact and target. */
  async function expectNoBlockingViolation(page: string): Promise<void> {
    const violations = await runAxe(shopper)
    record.push(`  ${engine} ${page}: ${JSON.stringify(byImpact(violations))}`)
    expect.soft(violations.filter((v) => BLOCKING.has(v.impact))).toEqual([])
  }

  async function openBasket(): Promise<void> {
    await shopper.open(stack.shop.url)
    await shopper.waitFor('body[data-ready="true"]', { attached: true })
    await shopper.waitFor('#start-checkout')
  }
  const openCheckout = () => openShopCheckout(shopper, stack.shop.url)
  const untilTrue = async (probe: () => Promise<boolean>) => {
    for (let tries = 0; tries < 100 && !(await probe()); tries++) await new Promise((resolve) => setTimeout(resolve, 100))
  }

  it('the basket', async () => {
    await openBasket()
    await expectNoBlockingViolation('basket')
    expect.soft(await shopper.evaluate(unnamedControls)).toEqual([])
  })

  it('the empty card form: every input named, a natural Tab order, a visible focus', async () => {
    await openCheckout()
    await expectNoBlockingViolation('empty form')
    expect.soft(await shopper.evaluate(unnamedControls)).toEqual([])
    const order = await shopper.evaluate(focusOrder)
    expect.soft(order.positiveTabindex).toEqual([])
    expect.soft(order.dom).toEqual(order.visual)
    expect.soft(await shopper.evaluate(inputsWithoutFocusIndicator)).toEqual([])
  })

  it('every error shown: each tied to its field, announced once, the first field in error focused', async () => {
    await openCheckout()
    // A name with a digit, so that every field has its error (the name is optional).
    await shopper.type('#card-holder', 'A1')
    await shopper.evaluate(countLiveRegionUpdates)
    await shopper.click('#pay')
    await shopper.waitFor('#card-number-error')
    const errors = await shopper.evaluate(untiedErrors)
    expect.soft(errors.fieldsInError).toEqual(['card-number', 'card-expiry', 'card-cvc', 'card-holder'])
    expect.soft(errors).toMatchObject({ fieldsWithoutTheirError: [], errorsOfNoField: [] })
    expect.soft(await shopper.evaluate(liveRegionUpdates)).toEqual(['status'])
    expect.soft(await shopper.evaluate(() => document.activeElement?.id)).toBe('card-number')
    await expectNoBlockingViolation('every error shown')
  })

  it('the 3-D Secure challenge: its frame titled and focused when it opens', async () => {
    await openCheckout()
    await typeTestCard(shopper, findTestCard({ brand: 'visa', threeDSecure: 'challenge' }))
    await shopper.click('#pay')
    await shopper.waitFor('#threeds iframe')
    await untilTrue(async () => (await shopper.evaluate(challengeFrame))?.focused === true)
    expect.soft(await shopper.evaluate(challengeFrame)).toEqual({ title: englishFlow.challenge, focused: true })
    await expectNoBlockingViolation('challenge open')
    await shopper.answerChallenge('password')
    await shopper.waitFor('#result')
  })

  it('the result page', async () => {
    await openCheckout()
    await typeTestCard(shopper, findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
    await shopper.click('#pay')
    await shopper.waitFor('#result')
    expect.soft(await shopper.text('#result-code')).toBe('Authorised')
    await expectNoBlockingViolation('result')
    expect.soft(await shopper.evaluate(unnamedControls)).toEqual([])
  })
  // Last in the block: the shopper stays signed in, with a card saved.
  it('the saved cards view: named, its code’s error tied and focused, announced once', async () => {
    await shopper.open(stack.shop.url)
    await shopper.waitFor('#sign-in')
    await shopper.click('#sign-in')
    await shopper.waitFor('#sign-out')
    const toCheckout = async () => {
      await openBasket()
      await shopper.click('#start-checkout')
      await shopper.waitFor('#order-summary')
    }
    await toCheckout()
    // The shop has one test shopper: an engine before this one may have saved its card already.
    if (await shopper.evaluate(() => (document.querySelector('#saved-card-form') as HTMLElement).hidden)) {
      await shopper.waitFor('#save-card')
      await typeTestCard(shopper, findTestCard({ brand: 'visa', threeDSecure: 'none', outcome: 'authorised' }))
      await shopper.click('#save-card')
      await shopper.click('#pay')
      await shopper.waitFor('#result')
      await toCheckout()
    }
    await shopper.waitFor('#saved-card-cvc')
    await expectNoBlockingViolation('saved cards')
    expect.soft(await shopper.evaluate(unnamedControls)).toEqual([])
    const order = await shopper.evaluate(focusOrder)
    expect.soft(order.dom).toEqual(order.visual)
    await shopper.evaluate(countLiveRegionUpdates)
    await shopper.click('#pay-saved')
    await shopper.waitFor('#saved-card-cvc-error')
    expect
      .soft(await shopper.evaluate(untiedErrors))
      .toEqual({ fieldsInError: ['saved-card-cvc'], fieldsWithoutTheirError: [], errorsOfNoField: [] })
    expect.soft(await shopper.evaluate(liveRegionUpdates)).toEqual(['status'])
    expect.soft(await shopper.evaluate(() => document.activeElement?.id)).toBe('saved-card-cvc')
    await expectNoBlockingViolation('saved cards, code missing')
  })
})
