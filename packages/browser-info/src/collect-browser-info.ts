import { BrowserInfoError } from './errors.js'
import { MAX_HEADER_LENGTH, MAX_SCREEN_SIZE, TIME_ZONE_OFFSET_RANGE, type EmvColorDepth } from './emv-limits.js'
import { toEmvColorDepth } from './lib/color-depth.js'
import { toEmvLanguage } from './lib/language.js'

/**
 * The page cannot read the Accept header it was sent with; this stands in until the shop's server
 * puts the real one in (`completeBrowserInfo`).
 */
export const ACCEPT_HEADER_PLACEHOLDER = '*/*'

/** 3-D Secure 2 browser data, named as the widely used checkout APIs name it in `browserInfo`. */
export interface BrowserInfo {
  readonly userAgent: string
  readonly acceptHeader: string
  readonly language: string
  readonly colorDepth: EmvColorDepth
  readonly screenHeight: number
  readonly screenWidth: number
  /** Minutes, with getTimezoneOffset()'s sign: UTC minus local time (Berlin in winter is -60). */
  readonly timeZoneOffset: number
  readonly javaEnabled: boolean
  readonly javaScriptEnabled: boolean
}

/** The parts of a browser window the collection reads; a real `window` has them all. */
export interface BrowserWindow {
  readonly navigator: Pick<Navigator, 'userAgent' | 'language'> & { readonly languages?: readonly string[]; javaEnabled?: () => boolean }
  readonly screen: Pick<Screen, 'colorDepth' | 'height' | 'width'>
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n))

/** A whole, non-negative screen size within EMV's six digits. */
function screenSize(value: number): number {
  return Number.isFinite(value) ? clamp(Math.round(value), 0, MAX_SCREEN_SIZE) : 0
}

/**
 * Reads the 3-D Secure 2 browser data from the page, at the moment it is called (not on import).
 * Call it when the shopper submits; a server-side caller gets `ERR_NO_BROWSER`.
 */
export function collectBrowserInfo(source: BrowserWindow | undefined = globalThis.window): BrowserInfo {
  if (!source?.navigator || !source.screen) {
    throw new BrowserInfoError('ERR_NO_BROWSER', 'collectBrowserInfo: no window here; call it in the browser page, at submit')
  }
  const { navigator, screen } = source
  let javaEnabled = false
  try {
    // Deprecated and always false in current browsers, but EMV still asks for it.
    javaEnabled = navigator.javaEnabled?.() === true
  } catch {
    javaEnabled = false
  }
  return {
    userAgent: String(navigator.userAgent ?? '').slice(0, MAX_HEADER_LENGTH),
    acceptHeader: ACCEPT_HEADER_PLACEHOLDER,
    language: toEmvLanguage(navigator.language || navigator.languages?.[0] || ''),
    colorDepth: toEmvColorDepth(Number(screen.colorDepth)),
    screenHeight: screenSize(screen.height),
    screenWidth: screenSize(screen.width),
    timeZoneOffset: clamp(new Date().getTimezoneOffset(), TIME_ZONE_OFFSET_RANGE.min, TIME_ZONE_OFFSET_RANGE.max),
    javaEnabled,
    javaScriptEnabled: true,
  }
}
