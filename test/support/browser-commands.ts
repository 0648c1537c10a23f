/**
 * Commands the browser tests run on the test runner's side, against the real browser page:
 * Chromium's DevTools protocol sets what the page cannot set on itself.
 */
import type { BrowserCommand } from 'vitest/node'
import { sendBidi, type FirefoxCommandsContext } from './engines/firefox-provider.ts'

interface PlaywrightContext {
  page: { context(): { newCDPSession(page: unknown): Promise<{ send(method: string, params?: object): Promise<unknown> }> } }
}

/** Emulates a screen of the given size (what `screen.width` and `screen.height` report); 0, 0 clears it. */
export const setScreenSize: BrowserCommand<[width: number, height: number]> = async (context, width, height) => {
  if ((context as { engine?: string }).engine === 'firefox') {
    // WebDriver BiDi, emulation.setScreenSettingsOverride; null clears it.
    const { page } = context as unknown as FirefoxCommandsContext
    await sendBidi(page, 'emulation.setScreenSettingsOverride', (id) => ({
      screenArea: width === 0 && height === 0 ? null : { width, height },
      contexts: [id],
    }))
    return
  }
  const { page } = context as unknown as PlaywrightContext
  const cdp = await page.context().newCDPSession(page)
  if (width === 0 && height === 0) await cdp.send('Emulation.clearDeviceMetricsOverride')
  // width/height 0 keep the viewport as it is; only the reported screen changes.
  else
    await cdp.send('Emulation.setDeviceMetricsOverride', {
      width: 0,
      height: 0,
      deviceScaleFactor: 0,
      mobile: false,
      screenWidth: width,
      screenHeight: height,
    })
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    setScreenSize: (width: number, height: number) => Promise<void>
  }
}
