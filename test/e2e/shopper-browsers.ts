/**
 * A shopper's browser for the demo flows in the engines Playwright cannot drive here: Firefox ESR
 * through puppeteer-core over WebDriver BiDi, WebKitGTK through its WebDriver under Xvfb. The few
 * things a checkout needs, with real keys and clicks; CSS selectors only.
 */
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core'
import { FIREFOX_PATH, frameAttribute } from '../support/engines/firefox-provider.ts'
import { submitAcsAnswer } from '../support/engines/acs-answer.ts'
import { elementId, WebDriverSession, type ElementRef } from '../support/engines/webdriver-session.ts'
import { launchChromiumShopper } from './chromium-shopper.ts'

export interface ShopperBrowser {
  readonly engine: 'chromium' | 'firefox' | 'webkit'
  open(url: string): Promise<void>
  /** Waits until an element matching `selector` is there (and shown, unless `attached`). */
  waitFor(selector: string, options?: { attached?: boolean; timeoutMs?: number }): Promise<void>
  click(selector: string): Promise<void>
  /** Focuses the field and types `text` key by key. */
  type(selector: string, text: string): Promise<void>
  text(selector: string): Promise<string>
  value(selector: string): Promise<string>
  url(): Promise<string>
  /** The browser's Back button. */
  back(): Promise<void>
  /** Sets the page's width (Firefox: the viewport; WebKit: the window), e.g. a phone's 390 px. */
  setSize(width: number, height: number): Promise<void>
  /** A PNG of the viewport, written to `path`. */
  screenshot(path: string): Promise<void>
  /** What `fn` returns, run in the page (as the driver's own script: the page's CSP forbids eval). */
  evaluate<T>(fn: () => T): Promise<T>
  /** Runs a script's source in the page, as the driver's own script (a test tool such as axe-core). */
  runScript(source: string): Promise<void>
  /** Answers the bank's challenge in the 3-D Secure frame the page shows. */
  answerChallenge(answer: string): Promise<void>
  /**
   * CSP violations of the open page: Firefox's page errors since launch; in WebKit, whose
   * WebDriver has no log, those a listener saw since `open` returned (the page's load).
   */
  cspViolations(): Promise<string[]>
  close(): Promise<void>
}

// By its name: its title is in the page's language.
const CHALLENGE_FRAME = 'iframe[name^="threeds-challenge"]'

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined | false>): Promise<T> {
  for (const started = Date.now(); ; ) {
    const value = await probe().catch(() => undefined)
    if (value) return value
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

class FirefoxShopper implements ShopperBrowser {
  readonly engine = 'firefox'
  private readonly pageErrors: string[] = []
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {
    // Firefox reports a CSP refusal (a favicon's too) as a page error over BiDi.
    page.on('pageerror', (error: unknown) => this.pageErrors.push(String((error as Error)?.message ?? error)))
  }

  static async launch(): Promise<FirefoxShopper> {
    const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true })
    return new FirefoxShopper(browser, await browser.newPage())
  }
  async cspViolations() {
    return this.pageErrors.filter((message) => message.startsWith('Content-Security-Policy'))
  }

  async open(url: string) {
    await this.page.goto(url)
  }
  async waitFor(selector: string, options: { attached?: boolean; timeoutMs?: number } = {}) {
    await this.page.waitForSelector(selector, { visible: !options.attached, timeout: options.timeoutMs ?? 20_000 })
  }
  async click(selector: string) {
    await this.page.click(selector)
  }
  async type(selector: string, text: string) {
    await this.page.focus(selector)
    await this.page.keyboard.type(text)
  }
  text(selector: string) {
    return this.page.$eval(selector, (e) => e.textContent ?? '')
  }
  value(selector: string) {
    return this.page.$eval(selector, (e) => (e as HTMLInputElement).value)
  }
  async url() {
    return this.page.url()
  }
  async back() {
    await this.page.goBack()
  }
  async setSize(width: number, height: number) {
    await this.page.setViewport({ width, height })
  }
  async screenshot(path: string) {
    await this.page.screenshot({ path: path as `${string}.png` })
  }
  evaluate<T>(fn: () => T) {
    return this.page.evaluate(fn) as Promise<T>
  }
  async runScript(source: string) {
    await this.page.evaluate(`${source}\n;undefined`)
  }
  async answerChallenge(answer: string) {
    const frame = await until<Frame>('the bank’s challenge page', 20_000, async () => {
      for (const frame of this.page.frames()) {
        if ((await frameAttribute(frame, 'name'))?.startsWith('threeds-challenge') && frame.url().includes('/threeds/acs')) return frame
      }
      return undefined
    })
    await frame.waitForSelector('#answer')
    await frame.type('#answer', answer)
    await frame.click('button[type=submit]')
  }
  async close() {
    await this.browser.close()
  }
}

class WebKitShopper implements ShopperBrowser {
  readonly engine = 'webkit'
  private constructor(private readonly session: WebDriverSession) {}

  static async launch(): Promise<WebKitShopper> {
    return new WebKitShopper(await WebDriverSession.start())
  }

  private element(selector: string): Promise<ElementRef> {
    return this.session.findElement(selector)
  }

  async open(url: string) {
    await this.session.switchToFrame(null)
    await this.session.navigate(url)
    await this.session.execute(() => {
      const seen: string[] = []
      ;(window as unknown as { cspSeen: string[] }).cspSeen = seen
      document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
    })
  }
  async cspViolations() {
    await this.session.switchToFrame(null)
    return this.session.execute<string[]>(() => (window as unknown as { cspSeen?: string[] }).cspSeen ?? [])
  }
  async waitFor(selector: string, options: { attached?: boolean; timeoutMs?: number } = {}) {
    await this.session.switchToFrame(null)
    await until(selector, options.timeoutMs ?? 20_000, async () => {
      const element = await this.element(selector)
      return options.attached || (await this.session.call<boolean>('GET', `/element/${elementId(element)}/displayed`))
    })
  }
  async click(selector: string) {
    await this.session.switchToFrame(null)
    await this.session.click(await this.element(selector))
  }
  async type(selector: string, text: string) {
    await this.session.switchToFrame(null)
    await this.session.execute((s: string) => (document.querySelector(s) as HTMLElement).focus(), selector as never)
    await this.session.keys(
      [...text].flatMap((key) => [
        { kind: 'down' as const, key },
        { kind: 'up' as const, key },
      ]),
    )
  }
  async text(selector: string) {
    await this.session.switchToFrame(null)
    return this.session.execute<string>((s: string) => document.querySelector(s)?.textContent ?? '', selector as never)
  }
  async value(selector: string) {
    await this.session.switchToFrame(null)
    return this.session.execute<string>((s: string) => (document.querySelector(s) as HTMLInputElement).value, selector as never)
  }
  url() {
    return this.session.call<string>('GET', '/url')
  }
  async back() {
    await this.session.switchToFrame(null)
    await this.session.call('POST', '/back', {})
  }
  async setSize(width: number, height: number) {
    await this.session.call('POST', '/window/rect', { width, height })
  }
  async screenshot(path: string) {
    const { writeFile } = await import('node:fs/promises')
    await writeFile(path, Buffer.from(await this.session.call<string>('GET', '/screenshot'), 'base64'))
  }
  async evaluate<T>(fn: () => T) {
    await this.session.switchToFrame(null)
    return this.session.execute<T>(fn as never)
  }
  async runScript(source: string) {
    await this.session.switchToFrame(null)
    await this.session.call('POST', '/execute/sync', { script: source, args: [] })
  }
  async answerChallenge(answer: string) {
    // Typing into a cross-origin frame fails through WebKit's WebDriver ("Element is not
    // focusable"); a script in the bank's frame fills the field and submits, as the shopper would.
    await until('the bank’s challenge page', 20_000, async () => {
      await this.session.switchToFrame(null)
      await this.session.switchToFrame(await this.element(CHALLENGE_FRAME))
      return this.session.execute<boolean>(submitAcsAnswer as never, answer)
    })
    await this.session.switchToFrame(null)
  }
  async close() {
    await this.session.close()
  }
}

/** A shopper's browser of the given engine (Chromium through Playwright: `chromium-shopper.ts`). */
export function launchShopper(engine: 'chromium' | 'firefox' | 'webkit'): Promise<ShopperBrowser> {
  if (engine === 'chromium') return launchChromiumShopper()
  return engine === 'firefox' ? FirefoxShopper.launch() : WebKitShopper.launch()
}

/** The demo's page at `shopUrl`, ready, with an order started and the card fields on screen. */
export async function openShopperCheckout(shopper: Pick<ShopperBrowser, 'open' | 'waitFor' | 'click'>, shopUrl: string): Promise<void> {
  await shopper.open(shopUrl)
  await shopper.waitFor('body[data-ready="true"]', { attached: true })
  await shopper.click('#start-checkout')
  await shopper.waitFor('#card-number')
}

/** Types a test card into the demo's card fields, key by key. */
export async function typeTestCard(
  shopper: Pick<ShopperBrowser, 'type'>,
  card: { number: string; expiryMonth: string; expiryYear: string; securityCode?: string },
): Promise<void> {
  await shopper.type('#card-number', card.number)
  await shopper.type('#card-expiry', `${card.expiryMonth}${card.expiryYear.slice(2)}`)
  if (card.securityCode) await shopper.type('#card-cvc', card.securityCode)
}
