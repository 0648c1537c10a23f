/**
 * A W3C WebDriver session over HTTP, just the commands the WebKit provider needs (WebDriver,
 * W3C Recommendation, sections 8-17), and the WebKitGTK driver it talks to, started under Xvfb:
 * MiniBrowser has no headless mode.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { freePort } from '../free-port.ts'

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER ?? '/usr/bin/WebKitWebDriver'
export const MINIBROWSER = process.env.WEBKIT_MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

/** The key WebDriver sends for a key name (section 17.4.2, "normalised key values"). */
const SPECIAL_KEYS: Readonly<Record<string, string>> = {
  Backspace: '\uE003',
  Tab: '\uE004',
  Enter: '\uE007',
  Shift: '\uE008',
  Control: '\uE009',
  Alt: '\uE00A',
  Escape: '\uE00C',
  End: '\uE010',
  Home: '\uE011',
  ArrowLeft: '\uE012',
  ArrowUp: '\uE013',
  ArrowRight: '\uE014',
  ArrowDown: '\uE015',
  Delete: '\uE017',
  Meta: '\uE03D',
}

export function webdriverKey(key: string): string {
  const value = key.length === 1 ? key : SPECIAL_KEYS[key]
  if (!value) throw new Error(`webkit: no WebDriver key for "${key}"`)
  return value
}

export type ElementRef = { readonly 'element-6066-11e4-a52f-4d3c6c3a6a70': string }

/** The id WebDriver's element endpoints take: the reference's one value, whatever key the driver used. */
export const elementId = (element: ElementRef): string => Object.values(element)[0] as string

export class WebDriverSession {
  private constructor(
    private readonly base: string,
    readonly id: string,
    private readonly driver: ChildProcess,
  ) {}

  /** Starts WebKitWebDriver under xvfb-run and opens a MiniBrowser session. */
  static async start(): Promise<WebDriverSession> {
    const port = await freePort()
    // Its own process group, so closing takes Xvfb and MiniBrowser with it.
    // A shopper's locale: without LANG, WebKitGTK reports the POSIX "C" as navigator.language.
    const env: NodeJS.ProcessEnv = { ...process.env, LANG: 'en_US.UTF-8', LANGUAGE: 'en_US' }
    delete env.LC_ALL
    delete env.LC_MESSAGES
    const driver = spawn('xvfb-run', ['-a', WEBKIT_DRIVER, `--port=${port}`], { detached: true, stdio: 'ignore', env })
    const base = `http://127.0.0.1:${port}`
    for (let waited = 0; ; waited += 100) {
      const ready = await fetch(`${base}/status`).then(
        (r) => r.ok,
        () => false,
      )
      if (ready) break
      if (waited > 20_000) throw new Error('webkit: WebKitWebDriver did not start within 20 s')
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const capabilities = { alwaysMatch: { 'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] } } }
    const response = await fetch(`${base}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ capabilities }),
    })
    const { value } = (await response.json()) as { value: { sessionId: string } }
    return new WebDriverSession(base, value.sessionId, driver)
  }

  async call<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.base}/session/${this.id}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })
    const { value } = (await response.json()) as { value: T & { error?: string; message?: string } }
    if (!response.ok) throw new Error(`webkit: ${method} ${path}: ${value?.error} ${value?.message ?? ''}`)
    return value
  }

  navigate(url: string): Promise<unknown> {
    return this.call('POST', '/url', { url })
  }

  /** Runs `fn` in the current frame; its arguments and result travel as JSON. */
  execute<T>(fn: (...args: never[]) => unknown, ...args: unknown[]): Promise<T> {
    return this.call<T>('POST', '/execute/sync', { script: `return (${fn.toString()}).apply(null, arguments)`, args })
  }

  findElement(css: string): Promise<ElementRef> {
    return this.call<ElementRef>('POST', '/element', { using: 'css selector', value: css })
  }

  click(element: ElementRef): Promise<unknown> {
    return this.call('POST', `/element/${elementId(element)}/click`, {})
  }

  /** Into a child frame by its element, or back to the top (null). */
  switchToFrame(element: ElementRef | null): Promise<unknown> {
    return this.call('POST', '/frame', { id: element })
  }

  /** Presses and releases keys: `down`/`up` steps as WebDriver key actions. */
  keys(steps: ReadonlyArray<{ kind: 'down' | 'up'; key: string }>): Promise<unknown> {
    if (steps.length === 0) return Promise.resolve()
    const actions = steps.map((step) => ({ type: step.kind === 'down' ? 'keyDown' : 'keyUp', value: webdriverKey(step.key) }))
    return this.call('POST', '/actions', { actions: [{ type: 'key', id: 'keyboard', actions }] })
  }

  async close(): Promise<void> {
    await this.call('DELETE', '').catch(() => undefined)
    try {
      process.kill(-this.driver.pid!, 'SIGTERM')
    } catch {
      // already gone
    }
  }
}
