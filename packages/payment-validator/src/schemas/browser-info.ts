import * as z from 'zod'
import { stringMatching } from '../lib/string-matching.js'

/**
 * The 3-D Secure 2 browser data (spec: "not shown"; named as the widely used checkout APIs do and
 * bounded by EMV 3DS v2.2.0 Table A.1). Strict: we build it ourselves with @card-jwe/browser-info.
 */
export const BrowserInfoSchema = z.strictObject({
  /** The browser's User-Agent header. */
  userAgent: z.string().min(1).max(2048),
  /** The browser's Accept header. */
  acceptHeader: z.string().min(1).max(2048),
  /** BCP 47 tag. */
  language: stringMatching(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'a BCP 47 language tag, as en-GB').max(35),
  // One literal type per EMV value (1 | 4 | … | 48), so a parsed body fits @card-jwe/browser-info's type without a cast.
  /** Bits per pixel, one of the EMV values. */
  colorDepth: z.literal([1, 4, 8, 15, 16, 24, 32, 48] as const),
  /** Screen height in CSS pixels. */
  screenHeight: z.int().min(0).max(999_999),
  /** Screen width in CSS pixels. */
  screenWidth: z.int().min(0).max(999_999),
  /** UTC minus local time in minutes, as getTimezoneOffset() gives it. */
  timeZoneOffset: z.int().min(-840).max(720),
  /** Whether Java applets run. */
  javaEnabled: z.boolean(),
  /** Whether the page's script ran; absent means it did. */
  javaScriptEnabled: z.boolean().optional(),
})
/** The 3-D Secure 2 browser data, as parsed from a body. */
export type BrowserInfoBody = z.infer<typeof BrowserInfoSchema>
