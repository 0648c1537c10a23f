/**
 * The shopper's browser of shopper-browsers.ts in Chromium, through Playwright: so one test body
 * runs in all three engines. CSS selectors only, as there; CSP violations from the page's own
 * `securitypolicyviolation` events since the last `open`.
 */
import { chromium, type Browser, type Page } from 'playwright'
import { answerChallenge } from '@card-jwe/sandbox'
import { chromiumLaunchOptions } from '../support/browsers.js'
import type { ShopperBrowser } from './shopper-browsers.js'

class ChromiumShopper implements Omit<ShopperBrowser, 'engine'> {
  readonly engine = 'chromium'
  private readonly violations: string[] = []
  private constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {
    page.on('console', (message) => {
      if (message.text().startsWith('CSP violation')) this.violations.push(message.text())
    })
  }

  static async launch(): Promise<ChromiumShopper> {
    const browser = await chromium.launch(chromiumLaunchOptions())
    const page = await browser.newPage()
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`),
      )
    })
    return new ChromiumShopper(browser, page)
  }

  async open(url: string) {
    this.violations.length = 0
    await this.page.goto(url)
  }
  async waitFor(selector: string, options: { attached?: boolean; timeoutMs?: number } = {}) {
    await this.page.waitForSelector(selector, { state: options.attached ? 'attached' : 'visible', timeout: options.timeoutMs ?? 20_000 })
  }
  async click(selector: string) {
    await this.page.click(selector)
  }
  async type(selector: string, text: string) {
    await this.page.focus(selector)
    await this.page.keyboard.type(text)
  }
  async text(selector: string) {
    return (await this.page.textContent(selector)) ?? ''
  }
  value(selector: string) {
    return this.page.inputValue(selector)
  }
  async url() {
    return this.page.url()
  }
  async back() {
    await this.page.goBack()
  }
  async setSize(width: number, height: number) {
    await this.page.setViewportSize({ width, height })
  }
  async screenshot(path: string) {
    await this.page.screenshot({ path })
  }
  evaluate<T>(fn: () => T) {
    return this.page.evaluate(fn) as Promise<T>
  }
  async runScript(source: string) {
    await this.page.evaluate(`${source}\n;undefined`)
  }
  async answerChallenge(answer: string) {
    await answerChallenge(this.page, answer === 'password' ? 'approve' : 'refuse')
  }
  async cspViolations() {
    return [...this.violations]
  }
  async close() {
    await this.browser.close()
  }
}

/** A shopper's Chromium, driven as the other engines' shopper browsers are. */
export async function launchChromiumShopper(): Promise<Omit<ShopperBrowser, 'engine'> & { readonly engine: 'chromium' }> {
  return ChromiumShopper.launch()
}
