import { afterEach, describe, expect, it } from 'vitest'
import { page } from 'vitest/browser'
import { ACCEPT_HEADER_PLACEHOLDER, chooseChallengeWindowSize, collectBrowserInfo, EMV_COLOR_DEPTHS } from '@card-jwe/browser-info'

afterEach(() => {
  delete (Screen.prototype as { colorDepth?: number }).colorDepth
})

describe('collectBrowserInfo in a real browser', () => {
  it('reads the browser’s own values', () => {
    const info = collectBrowserInfo()
    expect(info).toEqual({
      userAgent: navigator.userAgent,
      acceptHeader: ACCEPT_HEADER_PLACEHOLDER,
      language: navigator.language.length <= 8 ? navigator.language : expect.any(String),
      colorDepth: expect.any(Number),
      screenHeight: screen.height,
      screenWidth: screen.width,
      timeZoneOffset: new Date().getTimezoneOffset(),
      javaEnabled: false,
      javaScriptEnabled: true,
    })
    expect(EMV_COLOR_DEPTHS).toContain(info.colorDepth)
    expect(info.colorDepth).toBeLessThanOrEqual(screen.colorDepth)
    expect(info.userAgent).toMatch(/Chrome|Firefox|Safari/)
  })

  it('is only read when called: the package has no effect on import', async () => {
    const before = Object.keys(globalThis).length
    await import('@card-jwe/browser-info')
    expect(Object.keys(globalThis).length).toBe(before)
  })

  it.each([
    [24, 24],
    [30, 24],
    [32, 32],
    [48, 48],
    [64, 48],
    [2, 1],
  ])('maps a colour depth of %i to %i', (depth, expected) => {
    // Chromium has no switch for colour depth, so the test redefines the getter on Screen.prototype;
    // collectBrowserInfo still reads the real screen object.
    Object.defineProperty(Screen.prototype, 'colorDepth', { get: () => depth, configurable: true })
    expect(screen.colorDepth).toBe(depth)
    expect(collectBrowserInfo().colorDepth).toBe(expected)
  })

  it.each([
    [240, 480, '05'],
    [320, 480, '01'],
    [400, 500, '02'],
    [620, 450, '04'],
    [800, 700, '03'],
  ] as const)('chooses the challenge window for a %ix%i viewport: %s', async (width, height, expected) => {
    await page.viewport(width, height)
    expect([innerWidth, innerHeight]).toEqual([width, height])
    expect(chooseChallengeWindowSize({ width: innerWidth, height: innerHeight })).toBe(expected)
  })
})
