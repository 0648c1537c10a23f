/**
 * Vitest browser provider for Firefox ESR (Debian's /usr/bin/firefox-esr) through puppeteer-core
 * over WebDriver BiDi: Playwright's own Firefox driver cannot drive this build. Real key
 * and pointer events for userEvent; the commands our tests use take the page from this context.
 */
import { defineBrowserProvider } from '@vitest/browser'
import puppeteer, { type Browser, type Frame, type KeyInput, type Page } from 'puppeteer-core'
import type { BrowserCommand, BrowserProvider, TestProject } from 'vitest/node'
import { keySteps, releaseAll, type KeyStep } from './key-steps.ts'
import { markTarget } from './resolve-selector.ts'

export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'

/** What commands get from this provider. */
export interface FirefoxCommandsContext extends Record<string, unknown> {
  readonly engine: 'firefox'
  readonly page: Page
  /** The frame the tests run in. */
  frame(): Promise<Frame>
}

/** An attribute of the `<iframe>` a frame lives in (null for the top frame, or one being detached). */
export async function frameAttribute(frame: Frame, attribute: 'name' | 'title'): Promise<string | null> {
  const element = await frame.frameElement().catch(() => null)
  return element ? element.evaluate((e, a) => e.getAttribute(a), attribute) : null
}

/** The frame the tests run in: the orchestrator's iframe named "vitest-iframe". */
async function testerFrame(page: Page): Promise<Frame> {
  for (let waited = 0; waited < 5_000; waited += 50) {
    for (const frame of page.frames()) if ((await frameAttribute(frame, 'name')) === 'vitest-iframe') return frame
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error('firefox: no vitest test frame on the page')
}

/** Sends a WebDriver BiDi command for the page's top-level browsing context (puppeteer has no API for some). */
export async function sendBidi(page: Page, method: string, params: (contextId: string) => object): Promise<unknown> {
  const context = (
    page.mainFrame() as unknown as {
      browsingContext: { id: string; userContext: { browser: { session: { send(m: string, p: object): Promise<unknown> } } } }
    }
  ).browsingContext
  return context.userContext.browser.session.send(method, params(context.id))
}

// One character keys a US keyboard has are pressed as keys; others (full-width digits) are sent as text.
const isUsKey = (key: string) => key.length > 1 || /^[\x20-\x7e]$/.test(key)

async function run(page: Page, steps: readonly KeyStep[], selectAll: () => Promise<void>): Promise<void> {
  for (const step of steps) {
    if (step.kind === 'selectAll') await selectAll()
    else if (!isUsKey(step.key)) {
      if (step.kind === 'down') await page.keyboard.sendCharacter(step.key)
    } else if (step.kind === 'down') await page.keyboard.down(step.key as KeyInput)
    else await page.keyboard.up(step.key as KeyInput)
  }
}

const contextOf = (context: unknown) => context as FirefoxCommandsContext

const selectActive = (frame: Frame) => frame.evaluate(() => (document.activeElement as HTMLInputElement | null)?.select?.())

/** A CSS selector for what a vitest selector names, in the test frame. */
const target = (frame: Frame, selector: string) => frame.evaluate(markTarget, selector)

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument list; vitest's own table is typed the same way
const commands: Record<string, BrowserCommand<any[]>> = {
  async __vitest_keyboard(context, text: string, state: { unreleased: string[] }) {
    const { page, frame } = contextOf(context)
    const pressed = new Set(state.unreleased)
    const f = await frame()
    await run(page, keySteps(text, pressed), () => selectActive(f))
    return { unreleased: [...pressed] }
  },
  async __vitest_type(
    context,
    selector: string,
    text: string,
    options: { skipClick?: boolean; skipAutoClose?: boolean; unreleased?: string[] } = {},
  ) {
    const { page, frame } = contextOf(context)
    const f = await frame()
    if (!options.skipClick) await f.focus(await target(f, selector))
    const pressed = new Set(options.unreleased ?? [])
    const steps = keySteps(text, pressed)
    await run(page, options.skipAutoClose ? steps : [...steps, ...releaseAll(pressed)], () => selectActive(f))
    return { unreleased: [...pressed] }
  },
  async __vitest_click(context, selector: string) {
    const f = await contextOf(context).frame()
    await f.click(await target(f, selector))
  },
  async __vitest_clear(context, selector: string) {
    const { page, frame } = contextOf(context)
    const f = await frame()
    await f.focus(await target(f, selector))
    await selectActive(f)
    await page.keyboard.press('Backspace')
  },
  async __vitest_fill(context, selector: string, text: string) {
    const { page, frame } = contextOf(context)
    const f = await frame()
    await f.focus(await target(f, selector))
    await selectActive(f)
    await page.keyboard.press('Backspace')
    await page.keyboard.sendCharacter(text)
  },
  async __vitest_cleanup(context, state: { unreleased?: string[] }) {
    const { page } = contextOf(context)
    for (const key of state.unreleased ?? []) await page.keyboard.up(key as KeyInput)
  },
}

class FirefoxProvider implements BrowserProvider {
  readonly name = 'firefox-bidi'
  readonly supportsParallelism = false
  private browser: Promise<Browser> | undefined
  private readonly pages = new Map<string, Page>()

  constructor(private readonly project: TestProject) {
    for (const [name, command] of Object.entries(commands)) project.browser!.registerCommand(name as never, command as never)
  }

  private launch(): Promise<Browser> {
    this.browser ??= puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: this.project.config.browser.headless !== false,
    })
    return this.browser
  }

  getCommandsContext(sessionId: string): FirefoxCommandsContext {
    const page = this.pages.get(sessionId)
    if (!page) throw new Error(`firefox: no page for session ${sessionId}`)
    return { engine: 'firefox', page, frame: () => testerFrame(page) }
  }

  async openPage(sessionId: string, url: string): Promise<void> {
    await this.pages.get(sessionId)?.close()
    const page = await (await this.launch()).newPage()
    this.pages.set(sessionId, page)
    await page.goto(url, { timeout: 0 })
  }

  async close(): Promise<void> {
    const browser = await this.browser
    this.browser = undefined
    this.pages.clear()
    await browser?.close()
  }
}

/** The provider for a vitest browser instance `{ browser: 'firefox', provider: firefox() }`. */
export function firefox() {
  return defineBrowserProvider({
    name: 'firefox-bidi',
    supportedBrowser: ['firefox'],
    providerFactory: (project) => new FirefoxProvider(project),
  })
}
