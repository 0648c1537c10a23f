/**
 * Browser commands for the checkout-actions tests: they run in the test runner's Node process, so
 * the page can pay against a real sandbox (its real 3DS Method, ACS and bank pages) and answer the
 * ACS frame as a shopper would, through the browser driver.
 */
import type { ThreeDSecureFlow } from '@card-jwe/testkit'
import type { Frame } from 'puppeteer-core'
import type { BrowserCommand } from 'vitest/node'
import { frameAttribute, type FirefoxCommandsContext } from './engines/firefox-provider.ts'
import type { WebKitCommandsContext } from './engines/webkit-provider.ts'
import { submitAcsAnswer } from './engines/acs-answer.ts'
import type { RegisteredShop } from '../../apps/sandbox/test/support/sandbox-fixture.ts'

let fixture: Promise<RegisteredShop> | undefined
/** One sandbox and registered shop per test run, started on first use (imported then, not with the config). */
const sandbox = () => (fixture ??= import('../../apps/sandbox/test/support/sandbox-fixture.ts').then((m) => m.registeredShop()))

/** What the page gets back from the shop's backend: the result and any action, nothing more. */
export interface PageResult {
  readonly resultCode: string
  readonly action?: Record<string, unknown> | undefined
}

/** Starts a card payment whose 3-D Secure flow is `flow`; the ACS will post its result to `returnOrigin`. */
export const startCardPayment: BrowserCommand<[flow: ThreeDSecureFlow, returnOrigin: string]> = async (_context, flow, returnOrigin) => {
  const shop = await sandbox()
  const { findTestCard } = await import('@card-jwe/testkit')
  const card = findTestCard({ brand: 'visa', threeDSecure: flow, outcome: 'authorised' })
  const response = await shop.client.createPayment(
    shop.storeId,
    await shop.cardPayment(card, { returnUrl: `${returnOrigin}/checkout/return` }),
  )
  return { resultCode: response.resultCode, action: response.action } satisfies PageResult
}

/** Sends the page's details on, as the shop's payment-details endpoint would. */
export const sendDetails: BrowserCommand<[details: Record<string, string>]> = async (_context, details) => {
  const shop = await sandbox()
  const response = await shop.client.paymentDetails(shop.storeId, { details })
  return { resultCode: response.resultCode, action: response.action } satisfies PageResult
}

interface PlaywrightFrame {
  name(): string
  url(): string
  locator(selector: string): {
    fill(value: string, options?: { timeout: number }): Promise<void>
    press(key: string, options?: { timeout: number; noWaitAfter?: boolean }): Promise<void>
  }
  waitForURL(url: RegExp): Promise<void>
  isDetached(): boolean
}
interface PlaywrightContext {
  page: { frames(): PlaywrightFrame[]; waitForTimeout(ms: number): Promise<void> }
}

/** The challenge frame showing the ACS page, in Firefox (puppeteer over WebDriver BiDi). */
async function firefoxAcsFrame(page: FirefoxCommandsContext['page'], frameName: string | undefined): Promise<Frame | undefined> {
  for (const frame of page.frames()) {
    const name = await frameAttribute(frame, 'name')
    if (name && (frameName ? name === frameName : name.startsWith('threeds-challenge')) && frame.url().includes('/threeds/acs'))
      return frame
  }
  return undefined
}

/**
 * In WebKit, enters the frame named `frameName` (or the first challenge frame) inside the test
 * frame; false while there is none.
 */
async function enterWebKitFrame(context: WebKitCommandsContext, frameName: string | undefined): Promise<boolean> {
  await context.enterTestFrame()
  const selector = frameName ? `iframe[name="${frameName}"]` : 'iframe[name^="threeds-challenge"]'
  const element = await context.session.findElement(selector).catch(() => null)
  if (!element) return false
  await context.session.switchToFrame(element)
  return true
}

/** Types the answer into the ACS page of the challenge frame named `frameName` (or the first one) and confirms. */
export const answerChallenge: BrowserCommand<[answer: string, frameName?: string]> = async (context, answer, frameName) => {
  if ((context as { engine?: string }).engine === 'webkit') {
    // Typing into a cross-origin frame through WebKit's WebDriver fails ("Element is not focusable");
    // a script in that frame does what the shopper would: fill the field, submit the form.
    const webkit = context as unknown as WebKitCommandsContext
    for (let waited = 0; waited < 10_000; waited += 100) {
      if (await enterWebKitFrame(webkit, frameName)) {
        const answered = await webkit.session.execute<boolean>(submitAcsAnswer as never, answer)
        if (answered) return
      }
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    throw new Error('no challenge frame showed the ACS page within 10 s')
  }
  if ((context as { engine?: string }).engine === 'firefox') {
    const { page } = context as unknown as FirefoxCommandsContext
    for (let waited = 0; waited < 10_000; waited += 50) {
      const frame = await firefoxAcsFrame(page, frameName).catch(() => undefined)
      // A frame seen mid-navigation may be detached by the time it is used: look again.
      const typed = frame
        ? await frame
            .waitForSelector('#answer', { timeout: 2_000 })
            .then(() => frame.type('#answer', answer))
            .then(() => frame.focus('#answer'))
            .then(
              () => true,
              () => false,
            )
        : false
      if (typed) {
        await page.keyboard.press('Enter')
        return
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error('no challenge frame showed the ACS page within 10 s')
  }
  const { page } = context as unknown as PlaywrightContext
  for (let waited = 0; waited < 10_000; waited += 50) {
    const frame = page
      .frames()
      .find((f) => (frameName ? f.name() === frameName : f.name().startsWith('threeds-challenge')) && f.url().includes('/threeds/acs'))
    if (frame) {
      // Keys, not a click: the runner's own page lies over the test frame and takes pointer events.
      await frame.locator('#answer').fill(answer, { timeout: 5000 })
      // The submit ends the challenge and the page removes this very frame, which can leave the
      // press waiting on a frame that is gone: that is the answer delivered, not a failure. (The
      // test then checks the outcome the page received, so a press that truly failed still fails.)
      await frame
        .locator('#answer')
        .press('Enter', { timeout: 5000, noWaitAfter: true })
        .catch((error: unknown) => {
          if (!frame.isDetached()) throw error
        })
      return
    }
    await page.waitForTimeout(50)
  }
  throw new Error(
    `no challenge frame showed the ACS page within 10 s; frames: ${page
      .frames()
      .map((f) => `${f.name()} ${f.url()}`)
      .join(', ')}`,
  )
}

/** The URL a frame named `frameName` shows now (cross-origin frames included). */
export const frameUrl: BrowserCommand<[frameName: string]> = async (context, frameName) => {
  if ((context as { engine?: string }).engine === 'webkit') {
    const webkit = context as unknown as WebKitCommandsContext
    return (await enterWebKitFrame(webkit, frameName)) ? webkit.session.execute<string>(() => location.href) : null
  }
  if ((context as { engine?: string }).engine === 'firefox') {
    for (const frame of (context as unknown as FirefoxCommandsContext).page.frames())
      if ((await frameAttribute(frame, 'name')) === frameName) return frame.url()
    return null
  }
  const { page } = context as unknown as PlaywrightContext
  return (
    page
      .frames()
      .find((f) => f.name() === frameName)
      ?.url() ?? null
  )
}

/** Closes the run's sandbox (the last test calls it). */
export const closeSandbox: BrowserCommand<[]> = async () => {
  if (fixture) await (await fixture).close()
  fixture = undefined
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    startCardPayment: (flow: ThreeDSecureFlow, returnOrigin: string) => Promise<PageResult>
    sendDetails: (details: Record<string, string>) => Promise<PageResult>
    answerChallenge: (answer: string, frameName?: string) => Promise<void>
    frameUrl: (frameName: string) => Promise<string | null>
    closeSandbox: () => Promise<void>
  }
}
