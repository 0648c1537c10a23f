/**
 * collectBrowserInfo follows the screen the browser reports, with the screen emulated by the
 * driver (Chromium's DevTools protocol, Firefox's WebDriver BiDi). WebKitGTK's WebDriver has no
 * screen emulation: this file is not run there (test/support/browsers.ts names it).
 */
import { afterEach, expect, it } from 'vitest'
import { commands } from 'vitest/browser'
import { collectBrowserInfo } from '@card-jwe/browser-info'

afterEach(async () => {
  await commands.setScreenSize(0, 0)
})

it.each([
  [1920, 1080],
  [375, 812],
  [2560, 1440],
])('follows the emulated screen %ix%i', async (width, height) => {
  await commands.setScreenSize(width, height)
  expect(screen.width).toBe(width)
  const info = collectBrowserInfo()
  expect([info.screenWidth, info.screenHeight]).toEqual([width, height])
})
