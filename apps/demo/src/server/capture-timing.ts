import { MAX_CAPTURE_DELAY_HOURS } from '@card-jwe/payment-validator'
import * as z from 'zod'
import type { ShopDb } from './db.js'

/**
 * The store's setting of when money is taken (the admin sets it): `null` when the merchant captures
 * from the admin (as before), 0 at payment, n hours after it. A new order records the setting of its
 * moment, so a change never alters an order already placed.
 */
export const CaptureTimingSchema = z.strictObject({
  captureDelayHours: z.union([z.null(), z.int().min(0).max(MAX_CAPTURE_DELAY_HOURS)]),
})

/** The setting's row in the shop's own `settings` table. */
const KEY = 'capture_delay_hours'

/** Reads and writes the setting. */
export function createCaptureTiming(db: ShopDb) {
  const read = db.prepare('SELECT value FROM settings WHERE id = ?')
  const write = db.prepare('INSERT INTO settings (id, value) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET value = excluded.value')
  return {
    get(): number | null {
      const row = read.get(KEY) as { value: string } | undefined
      return row === undefined || row.value === '' ? null : Number(row.value)
    },
    set(hours: number | null): void {
      write.run(KEY, hours === null ? '' : String(hours))
    },
  }
}

/** How the admin and the order show it. */
export const captureTimingLabel = (hours: number | null): string =>
  hours === null ? 'when captured' : hours === 0 ? 'at payment' : `${hours} h after payment`
