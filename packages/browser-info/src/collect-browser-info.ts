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
  /** navigator.userAgent, at most 2048 characters; the server replaces it with the request's header. */
  readonly userAgent: string
  /** The page cannot read it: `ACCEPT_HEADER_PLACEHOLDER` until the server puts in the request's Accept header. */
  readonly acceptHeader: string
  /** The browser's language as a BCP 47 tag of at most 8 characters ("nl-NL"). */
  readonly language: string
  /** Bits per pixel, rounded down to a value EMV allows. */
  readonly colorDepth: EmvColorDepth
  /** Screen height in CSS pixels. */
  readonly screenHeight: number
  /** Screen width in CSS pixels. */
  readonly screenWidth: number
  /** Minutes, with getTimezoneOffset()'s sign: UTC minus local time (Berlin in winter is -60). */
  readonly timeZoneOffset: number
  /** Whether the browser runs Java applets; false in every current browser. */
  readonly javaEnabled: boolean
  /** Always true when the page collected the data: its script ran. */
  readonly javaScriptEnabled: boolean
}

/** The parts of a browser window the collection reads; a real `window` has them all. */
export interface BrowserWindow {
  /** The user agent, languages and (legacy) javaEnabled(). */
  readonly navigator: Pick<Navigator, 'userAgent' | 'language'> & {
    /** The preferred languages, first the most preferred. */
    readonly languages?: readonly string[]
    /** Present in older browsers only. */
    javaEnabled?: () => boolean
  }
  /** Colour depth and screen size. */
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
