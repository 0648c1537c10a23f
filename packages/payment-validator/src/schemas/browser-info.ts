import { z } from 'zod'

/**
 * The 3-D Secure 2 browser data (spec: "not shown"; named as the widely used checkout APIs do and
 * bounded by EMV 3DS v2.2.0 Table A.1). Strict: we build it ourselves with @card-jwe/browser-info.
 */
export const BrowserInfoSchema = z.strictObject({
  userAgent: z.string().min(1).max(2048),
  acceptHeader: z.string().min(1).max(2048),
  language: z.string().regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/).max(35),
  // One literal type per EMV value (1 | 4 | … | 48), so a parsed body fits @card-jwe/browser-info's type without a cast.
  colorDepth: z.literal([1, 4, 8, 15, 16, 24, 32, 48] as const),
  screenHeight: z.int().min(0).max(999_999),
  screenWidth: z.int().min(0).max(999_999),
  timeZoneOffset: z.int().min(-840).max(720),
  javaEnabled: z.boolean(),
  javaScriptEnabled: z.boolean().optional(),
})
export type BrowserInfoBody = z.infer<typeof BrowserInfoSchema>
