/**
 * Which browsers the browser suites run in. Chromium through Playwright: Debian's build where it
 * exists (CHROMIUM_PATH overrides), else Playwright's own. Firefox ESR through puppeteer-core over
 * WebDriver BiDi (FIREFOX_PATH overrides), WebKitGTK through its WebDriver under Xvfb
 * (engines/webkit-provider.ts). `scripts/setup.sh --tests` installs all three; with CI=true a
 * missing one fails the run instead of being left out.
 */
import { existsSync } from 'node:fs'
import { playwright } from '@vitest/browser-playwright'
import { chromium, firefox, webkit } from 'playwright'
import { configDefaults } from 'vitest/config'
import type { BrowserInstanceOption } from 'vitest/node'
import { firefox as firefoxBidi, FIREFOX_PATH } from './engines/firefox-provider.ts'
import { webkit as webkitWebDriver, webkitInstalled } from './engines/webkit-provider.ts'
import { UNDER_FAKETIME } from './faketime.ts'

const SYSTEM_CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
/** Root in a container needs --no-sandbox; the rest keeps Chromium off a network it cannot reach. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

function installed(path: string): boolean {
  try {
    return existsSync(path)
  } catch {
    return false
  }
}

/** Launch options for Chromium, for the test runner and for scripts that drive a page themselves. */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  return installed(SYSTEM_CHROMIUM) || !installed(chromium.executablePath())
    ? { executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS }
    : { args: CHROMIUM_ARGS }
}

/** Tests an engine cannot run, each with the reason; the summary prints them (never silently left out). */
export const NOT_IN_WEBKIT = Object.freeze([
  { file: 'packages/browser-info/test/screen-emulation.browser.test.ts', reason: "WebKitGTK's WebDriver cannot emulate a screen size" },
])

/**
 * Tests that need the Playwright provider itself (its request events): Firefox and WebKit run here
 * on drivers of their own (firefox-provider.ts, webkit-provider.ts), so these run in Chromium.
 */
export const PLAYWRIGHT_PROVIDER_ONLY = Object.freeze([
  {
    file: 'test/capture/card-capture.browser.test.ts',
    reason: "the Vitest capture commands read Playwright's request events; Firefox and WebKit run on their own drivers here",
  },
])
const playwrightOnly = PLAYWRIGHT_PROVIDER_ONLY.map((n) => n.file)

/**
 * The engines this run wants: all three, unless CARD_JWE_ENGINES names some; under libfaketime
 * Chromium alone, since Firefox and WebKit do not start there (faketime.ts). Chromium is always one.
 */
export function wantedEngines(): ReadonlySet<'chromium' | 'firefox' | 'webkit'> {
  const named = (process.env.CARD_JWE_ENGINES ?? (UNDER_FAKETIME ? 'chromium' : 'chromium,firefox,webkit')).split(',').map((e) => e.trim())
  return new Set(['chromium', ...named.filter((e): e is 'firefox' | 'webkit' => e === 'firefox' || e === 'webkit')] as const)
}

export function browserInstances(): BrowserInstanceOption[] {
  const wanted = wantedEngines()
  const instances: BrowserInstanceOption[] = [{ browser: 'chromium', provider: playwright({ launchOptions: chromiumLaunchOptions() }) }]
  // In CI every engine must be there: a missing browser fails the run rather than thinning it.
  if (process.env.CI === 'true') {
    const missing = [
      wanted.has('firefox') && !installed(FIREFOX_PATH) && `Firefox (${FIREFOX_PATH})`,
      wanted.has('webkit') && !webkitInstalled() && 'WebKitGTK (WebKitWebDriver, MiniBrowser, xvfb-run)',
    ].filter(Boolean)
    if (missing.length) throw new Error(`browsers missing in CI: ${missing.join(', ')}; run scripts/setup.sh --tests`)
  }
  if (!wanted.has('firefox')) {
    // left out on purpose (CARD_JWE_ENGINES, or libfaketime); the summary says so
  } else if (installed(FIREFOX_PATH))
    instances.push({ browser: 'firefox', provider: firefoxBidi(), exclude: [...configDefaults.exclude, ...playwrightOnly] })
  else if (installed(firefox.executablePath())) instances.push({ browser: 'firefox', provider: playwright() })
  if (!wanted.has('webkit')) {
    // left out on purpose (CARD_JWE_ENGINES, or libfaketime); the summary says so
  } else if (webkitInstalled())
    instances.push({
      browser: 'webkit',
      provider: webkitWebDriver(),
      exclude: [...configDefaults.exclude, ...NOT_IN_WEBKIT.map((n) => n.file), ...playwrightOnly],
    })
  else if (installed(webkit.executablePath())) instances.push({ browser: 'webkit', provider: playwright() })
  return instances
}
