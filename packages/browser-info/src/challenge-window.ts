import { BrowserInfoError } from './errors.js'

/** EMV 3DS challengeWindowSize (v2.2.0 Table A.1): four fixed sizes and full screen. */
export type ChallengeWindowSize = '01' | '02' | '03' | '04' | '05'

/** The CSS size of the challenge iframe for one EMV window size. */
export interface ChallengeWindowDimensions {
  /** CSS width for the challenge iframe: pixels, or "100%" for full screen. */
  readonly width: string
  /** CSS height for the challenge iframe: pixels, or "100%" for full screen. */
  readonly height: string
}

/** Each EMV window size as CSS width and height (EMV 3DS v2.2.0, Table A.1). */
export const CHALLENGE_WINDOW_SIZES: Readonly<Record<ChallengeWindowSize, ChallengeWindowDimensions>> = Object.freeze({
  '01': Object.freeze({ width: '250px', height: '400px' }),
  '02': Object.freeze({ width: '390px', height: '400px' }),
  '03': Object.freeze({ width: '500px', height: '600px' }),
  '04': Object.freeze({ width: '600px', height: '400px' }),
  '05': Object.freeze({ width: '100%', height: '100%' }),
})

/** The fixed sizes from the largest area down: 03 (500x600), 04 (600x400), 02 (390x400), 01 (250x400). */
const BY_AREA: ReadonlyArray<readonly [ChallengeWindowSize, number, number]> = [
  ['03', 500, 600],
  ['04', 600, 400],
  ['02', 390, 400],
  ['01', 250, 400],
]

/**
 * The largest fixed challenge window that fits the container, in CSS pixels; full screen ("05")
 * when none fits, as on a narrow phone, so the issuer's page is never cut off.
 */
export function chooseChallengeWindowSize(container: { readonly width: number; readonly height: number }): ChallengeWindowSize {
  const { width, height } = container ?? {}
  if (!Number.isFinite(width) || !Number.isFinite(height)) {
    throw new BrowserInfoError('ERR_INVALID_ARGUMENT', 'chooseChallengeWindowSize: width and height must be numbers')
  }
  return BY_AREA.find(([, w, h]) => w <= width && h <= height)?.[0] ?? '05'
}
