import * as z from 'zod'

/** A compact JWE: five base64url segments, no padding; far shorter than 16 KiB for a card. */
export const CompactJweSchema = z
  .string()
  .max(16 * 1024)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+$/)
