import * as z from 'zod'

const COMPACT_JWE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/

/** A compact JWE: five base64url segments, no padding; far shorter than 16 KiB for a card. */
export const CompactJweSchema = z
  .string()
  .max(16 * 1024)
  // A refinement, not regex(): its refusal names the rule in words, where a regex's says only "format:regex".
  .refine((value) => COMPACT_JWE.test(value), { message: 'a compact JWE: five base64url parts joined by dots' })
