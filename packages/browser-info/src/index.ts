export { ACCEPT_HEADER_PLACEHOLDER, collectBrowserInfo } from './collect-browser-info.js'
export type { BrowserInfo, BrowserWindow } from './collect-browser-info.js'
export { CHALLENGE_WINDOW_SIZES, chooseChallengeWindowSize } from './challenge-window.js'
export type { ChallengeWindowDimensions, ChallengeWindowSize } from './challenge-window.js'
export {
  EMV_COLOR_DEPTHS,
  MAX_HEADER_LENGTH,
  MAX_IP_LENGTH,
  MAX_LANGUAGE_LENGTH,
  MAX_SCREEN_SIZE,
  TIME_ZONE_OFFSET_RANGE,
} from './emv-limits.js'
export type { EmvColorDepth } from './emv-limits.js'
export { BrowserInfoError } from './errors.js'
export type { BrowserInfoErrorCode } from './errors.js'
export { toEmvColorDepth } from './lib/color-depth.js'
export { toEmvLanguage } from './lib/language.js'
