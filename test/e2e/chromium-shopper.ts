/**
 * The shopper's browser of shopper-browsers.ts in Chromium, through Playwright: so a test written
 * once against `ShopperBrowser` runs in all three engines.
 */
import { chromium, type Browser, type Page } from 'playwright'
import { chromiumLaunchOptions } from '../support/browsers.ts'
import type { ShopperBrowser } from './shopper-browsers.ts'

const CHALLENGE_FRAME = 'iframe[title="Card verification by your bank"]'

class ChromiumShopper implements ShopperBrowser {
  readonly engine = 'chromium'
  private readonly problems: string[] = []
  constructor(
    private readonly browser: Browser,
    private readonly page: Page,
  ) {
    page.on('console', (message) => message.type() === 'error' && this.problems.push(message.text()))
  }

  async open(url: string) {
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
  readonly url = async () => this.page.url()
  readonly back = async () => void (await this.page.goBack())
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
    const frame = this.page.frameLocator(CHALLENGE_FRAME)
    await frame.locator('#answer').fill(answer)
    await frame.locator('button[type=submit]').click()
  }
  async cspViolations() {
    return this.problems.filter((message) => message.includes('Content Security Policy'))
  }
  async close() {
    await this.browser.close()
  }
}

export async function launchChromiumShopper(): Promise<ShopperBrowser> {
  const browser = await chromium.launch(chromiumLaunchOptions())
  return new ChromiumShopper(browser, await browser.newPage({ viewport: { width: 1280, height: 800 } }))
}
