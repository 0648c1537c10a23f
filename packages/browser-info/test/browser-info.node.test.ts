import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  BrowserInfoError,
  chooseChallengeWindowSize,
  collectBrowserInfo,
  EMV_COLOR_DEPTHS,
  toEmvColorDepth,
  toEmvLanguage,
  type BrowserInfo,
} from '@card-jwe/browser-info'
import { completeBrowserInfo, normalizeShopperIp } from '@card-jwe/browser-info/server'

const clientInfo: BrowserInfo = {
  userAgent: 'Mozilla/5.0 (page)',
  acceptHeader: '*/*',
  language: 'nl-NL',
  colorDepth: 24,
  screenHeight: 1080,
  screenWidth: 1920,
  timeZoneOffset: -60,
  javaEnabled: false,
  javaScriptEnabled: true,
}

describe('collectBrowserInfo outside a browser', () => {
  it('fails with a clear error where there is no window', () => {
    expect(() => collectBrowserInfo()).toThrow(BrowserInfoError)
    expect(() => collectBrowserInfo()).toThrow(/no window here/)
    try {
      collectBrowserInfo()
    } catch (error) {
      expect((error as BrowserInfoError).code).toBe('ERR_NO_BROWSER')
    }
  })

  it('reads a window-like source, rounding and clamping screen sizes', () => {
    const info = collectBrowserInfo({
      navigator: { userAgent: 'UA', language: 'de-CH-1996' },
      screen: { colorDepth: 30, height: 1079.6, width: -5 },
    })
    expect(info).toMatchObject({ language: 'de-CH', colorDepth: 24, screenHeight: 1080, screenWidth: 0 })
  })
})

describe('toEmvColorDepth', () => {
  it('keeps allowed values and rounds others down into the set', () => {
    for (const d of EMV_COLOR_DEPTHS) expect(toEmvColorDepth(d)).toBe(d)
    expect([0, 2, 10, 30, 31, 33, 47, 100, NaN].map(toEmvColorDepth)).toEqual([1, 1, 8, 24, 24, 32, 32, 48, 1])
  })

  it('never answers outside the set nor above the real depth (from 1 up)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), (d) => {
        const mapped = toEmvColorDepth(d)
        expect(EMV_COLOR_DEPTHS).toContain(mapped)
        expect(mapped).toBeLessThanOrEqual(d)
      }),
    )
  })
})

describe('toEmvLanguage', () => {
  it('trims by whole subtags to 8 characters', () => {
    expect(toEmvLanguage('en')).toBe('en')
    expect(toEmvLanguage('en-US')).toBe('en-US')
    expect(toEmvLanguage('zh-Hant-TW')).toBe('zh-Hant')
    expect(toEmvLanguage('sr-Latn-RS')).toBe('sr-Latn')
    expect(toEmvLanguage('en-US-x-twain')).toBe('en-US')
    expect(toEmvLanguage('en_GB')).toBe('en-GB')
  })

  it('says "und" for what is not a language tag', () => {
    for (const bad of ['', '12', 'english language', '-en', 'abcdefghi']) expect(toEmvLanguage(bad), bad).toBe('und')
  })

  it('always fits EMV', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        expect(toEmvLanguage(s).length).toBeLessThanOrEqual(8)
      }),
    )
  })
})

describe('completeBrowserInfo (server side)', () => {
  it('puts in the real Accept and User-Agent headers and the shopper IP', () => {
    const completed = completeBrowserInfo(clientInfo, {
      headers: { accept: 'text/html,application/xhtml+xml', 'user-agent': 'Mozilla/5.0 (request)' },
      ip: '::ffff:203.0.113.7',
    })
    expect(completed).toEqual({
      browserInfo: { ...clientInfo, acceptHeader: 'text/html,application/xhtml+xml', userAgent: 'Mozilla/5.0 (request)' },
      shopperIP: '203.0.113.7',
    })
  })

  it('reads fetch Headers too, and caps header length at 2048', () => {
    const completed = completeBrowserInfo(clientInfo, { headers: new Headers({ accept: 'a'.repeat(5000) }), ip: '2001:DB8::1' })
    expect(completed.browserInfo.acceptHeader).toHaveLength(2048)
    expect(completed.browserInfo.userAgent).toBe(clientInfo.userAgent)
    expect(completed.shopperIP).toBe('2001:db8::1')
  })

  it('leaves out an IP that is not one', () => {
    for (const ip of ['', 'localhost', '999.1.1.1', '1.2.3', '1.2.3.4.5', 'fe80::1%eth0', `${'1:'.repeat(30)}1`, undefined]) {
      expect(completeBrowserInfo(clientInfo, { headers: {}, ip }).shopperIP, String(ip)).toBeUndefined()
    }
    expect(normalizeShopperIp('127.0.0.1')).toBe('127.0.0.1')
    expect(normalizeShopperIp('::1')).toBe('::1')
  })

  it('takes browser data without javaScriptEnabled (a Drop-in body parsed by BrowserInfoSchema) as collected by script', () => {
    const { javaScriptEnabled: _, ...fromDropIn } = clientInfo
    expect(completeBrowserInfo(fromDropIn, { headers: {} }).browserInfo).toEqual({ ...clientInfo, javaScriptEnabled: true })
    expect(completeBrowserInfo({ ...fromDropIn, javaScriptEnabled: false }, { headers: {} }).browserInfo.javaScriptEnabled).toBe(false)
  })

  it('strips control characters from headers', () => {
    const completed = completeBrowserInfo(clientInfo, { headers: { 'user-agent': 'UA\r\nX-Injected: 1' } })
    expect(completed.browserInfo.userAgent).toBe('UAX-Injected: 1')
  })
})

describe('chooseChallengeWindowSize', () => {
  it('picks the largest fixed window that fits, else full screen', () => {
    expect(chooseChallengeWindowSize({ width: 1024, height: 768 })).toBe('03')
    expect(chooseChallengeWindowSize({ width: 600, height: 599 })).toBe('04')
    expect(chooseChallengeWindowSize({ width: 499, height: 700 })).toBe('02')
    expect(chooseChallengeWindowSize({ width: 300, height: 400 })).toBe('01')
    expect(chooseChallengeWindowSize({ width: 249, height: 900 })).toBe('05')
  })

  it('refuses a container without numbers', () => {
    expect(() => chooseChallengeWindowSize({ width: NaN, height: 1 })).toThrow(BrowserInfoError)
  })
})
