/**
 * Vitest browser provider for WebKit (Safari's engine): WebKitGTK's MiniBrowser driven through its
 * WebDriver under Xvfb. Real key events through WebDriver actions; clicks as WebDriver
 * element clicks; vitest's label selectors resolved in the page.
 */
import { defineBrowserProvider } from '@vitest/browser'
import { existsSync } from 'node:fs'
import type { BrowserCommand, BrowserProvider } from 'vitest/node'
import { keySteps, releaseAll, type KeyStep } from './key-steps.ts'
import { markTarget } from './resolve-selector.ts'
import { MINIBROWSER, WEBKIT_DRIVER, WebDriverSession } from './webdriver-session.ts'

/** Whether this machine can run WebKit: the driver, MiniBrowser and xvfb-run. */
export function webkitInstalled(): boolean {
  return existsSync(WEBKIT_DRIVER) && existsSync(MINIBROWSER) && ['/usr/bin/xvfb-run', '/bin/xvfb-run'].some(existsSync)
}

/** What commands get from this provider. */
export interface WebKitCommandsContext extends Record<string, unknown> {
  readonly engine: 'webkit'
  readonly session: WebDriverSession
  /** Makes the test frame the current browsing context of the session. */
  enterTestFrame(): Promise<void>
}

async function enterTestFrame(session: WebDriverSession): Promise<void> {
  await session.switchToFrame(null)
  await session.switchToFrame(await session.findElement('iframe[name="vitest-iframe"]'))
}

const contextOf = (context: unknown) => context as WebKitCommandsContext

async function run(session: WebDriverSession, steps: readonly KeyStep[]): Promise<void> {
  let batch: Array<{ kind: 'down' | 'up'; key: string }> = []
  for (const step of steps) {
    if (step.kind !== 'selectAll') {
      batch.push(step)
      continue
    }
    await session.keys(batch)
    batch = []
    await session.execute(() => (document.activeElement as HTMLInputElement | null)?.select?.())
  }
  await session.keys(batch)
}

/** Focuses what a vitest selector names, in the test frame. */
async function focusTarget(context: WebKitCommandsContext, selector: string): Promise<void> {
  await context.enterTestFrame()
  const css = await context.session.execute<string>(markTarget as never, selector)
  await context.session.execute((target: string) => (document.querySelector(target) as HTMLElement).focus(), css as never)
}

// biome-ignore lint/suspicious/noExplicitAny: each command has its own argument list; vitest's own table is typed the same way
const commands: Record<string, BrowserCommand<any[]>> = {
  async __vitest_keyboard(context, text: string, state: { unreleased: string[] }) {
    const c = contextOf(context)
    await c.enterTestFrame()
    const pressed = new Set(state.unreleased)
    await run(c.session, keySteps(text, pressed))
    return { unreleased: [...pressed] }
  },
  async __vitest_type(
    context,
    selector: string,
    text: string,
    options: { skipClick?: boolean; skipAutoClose?: boolean; unreleased?: string[] } = {},
  ) {
    const c = contextOf(context)
    if (options.skipClick) await c.enterTestFrame()
    else await focusTarget(c, selector)
    const pressed = new Set(options.unreleased ?? [])
    const steps = keySteps(text, pressed)
    await run(c.session, options.skipAutoClose ? steps : [...steps, ...releaseAll(pressed)])
    return { unreleased: [...pressed] }
  },
  async __vitest_click(context, selector: string) {
    const c = contextOf(context)
    await c.enterTestFrame()
    const css = await c.session.execute<string>(markTarget as never, selector)
    await c.session.click(await c.session.findElement(css))
  },
  async __vitest_clear(context, selector: string) {
    const c = contextOf(context)
    await focusTarget(c, selector)
    await run(c.session, [{ kind: 'selectAll' }, { kind: 'down', key: 'Backspace' }, { kind: 'up', key: 'Backspace' }])
  },
  async __vitest_cleanup(context, state: { unreleased?: string[] }) {
    const c = contextOf(context)
    await c.session.keys((state.unreleased ?? []).map((key) => ({ kind: 'up' as const, key })))
  },
}

class WebKitProvider implements BrowserProvider {
  readonly name = 'webkit-webdriver'
  readonly supportsParallelism = false
  private session: Promise<WebDriverSession> | undefined

  constructor(project: { browser?: { registerCommand(name: never, command: never): void } | null }) {
    for (const [name, command] of Object.entries(commands)) project.browser!.registerCommand(name as never, command as never)
  }

  private current: WebDriverSession | undefined

  getCommandsContext(): WebKitCommandsContext {
    const session = this.current
    if (!session) throw new Error('webkit: no session')
    return { engine: 'webkit', session, enterTestFrame: () => enterTestFrame(session) }
  }

  async openPage(_sessionId: string, url: string): Promise<void> {
    this.session ??= WebDriverSession.start()
    this.current = await this.session
    await this.current.navigate(url)
  }

  async close(): Promise<void> {
    const session = await this.session
    this.session = undefined
    this.current = undefined
    await session?.close()
  }
}

/** The provider for a vitest browser instance `{ browser: 'webkit', provider: webkit() }`. */
export function webkit() {
  return defineBrowserProvider({
    name: 'webkit-webdriver',
    supportedBrowser: ['webkit'],
    providerFactory: (project) => new WebKitProvider(project),
  })
}
