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
import type { BrowserInstanceOption } from 'vitest/node'
import { firefox as firefoxBidi, FIREFOX_PATH } from './engines/firefox-provider.ts'

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

export function browserInstances(): BrowserInstanceOption[] {
  const instances: BrowserInstanceOption[] = [
    { browser: 'chromium', provider: playwright({ launchOptions: chromiumLaunchOptions() }) },
  ]
  if (installed(FIREFOX_PATH)) instances.push({ browser: 'firefox', provider: firefoxBidi() })
  else if (installed(firefox.executablePath())) instances.push({ browser: 'firefox', provider: playwright() })
  if (installed(webkit.executablePath())) instances.push({ browser: 'webkit', provider: playwright() })
  return instances
}
