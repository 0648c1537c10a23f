import { EMV_COLOR_DEPTHS, type EmvColorDepth } from '../emv-limits.js'

/**
 * Maps a screen's colour depth into EMV's allowed set by taking the largest allowed value that
 * does not exceed it: 30 (10 bits per channel, common on wide-gamut displays) becomes 24, because
 * claiming 32 would describe a palette the display does not have. Below 1 gives 1; above 48, 48.
 */
export function toEmvColorDepth(depth: number): EmvColorDepth {
  let chosen: EmvColorDepth = EMV_COLOR_DEPTHS[0]
  for (const allowed of EMV_COLOR_DEPTHS) if (allowed <= depth) chosen = allowed
  return chosen
}
