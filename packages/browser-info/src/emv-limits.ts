/**
 * EMV 3-D Secure browser data rules (EMV 3DS Protocol and Core Functions Specification v2.2.0,
 * Table A.1: browserAcceptHeader, browserColorDepth, browserLanguage, browserScreenHeight,
 * browserScreenWidth, browserTZ, browserUserAgent; Table A.1 also for browserIP).
 */

/** browserColorDepth: the only values the protocol allows, in bits per pixel. */
export const EMV_COLOR_DEPTHS = Object.freeze([1, 4, 8, 15, 16, 24, 32, 48] as const)
/** One of the colour depths EMV allows. */
export type EmvColorDepth = (typeof EMV_COLOR_DEPTHS)[number]

/** browserLanguage: 1-8 characters (a BCP 47 tag). */
export const MAX_LANGUAGE_LENGTH = 8
/** browserUserAgent and browserAcceptHeader: at most 2048 characters each. */
export const MAX_HEADER_LENGTH = 2048
/** browserScreenHeight / browserScreenWidth: 1-6 digits. */
export const MAX_SCREEN_SIZE = 999_999
/** browserTZ: minutes, UTC-14:00 to UTC+12:00 as getTimezoneOffset() signs them (UTC minus local). */
export const TIME_ZONE_OFFSET_RANGE = Object.freeze({
  /** UTC+14:00. */
  min: -840,
  /** UTC-12:00. */
  max: 720,
})
/** browserIP: IPv4 dotted or IPv6 text, at most 45 characters. */
export const MAX_IP_LENGTH = 45
