import type { SandboxContext } from './context.js'
import { findPayment, type PaymentRow, type PaymentStatus } from './payment-store.js'

const HOUR_MS = 3_600_000

/** A delayed capture takes what is left of the authorisation, as long as nothing ended it (a cancel, a full capture). */
const OPEN: readonly PaymentStatus[] = ['authorised', 'partially_captured']

function captureRest(context: SandboxContext, row: PaymentRow, at: string): void {
  const next = { ...row, captured: row.value, status: 'captured' as const }
  context.payments.update(row.psp_reference, { captured: next.captured, status: next.status }, at)
  context.payments.recordEvent(next, at)
}

/**
 * Right after a payment is authorised (inside the write that authorised it): with
 * `captureDelayHours` n, the capture falls due n hours from now on the sandbox's clock, so 0 at
 * authorisation itself; it then happens as {@link runDueCaptures} runs, a change of its own in
 * updated-payments (authorised, then captured) with no capture call. Without it, the shop captures.
 */
export function afterAuthorised(context: SandboxContext, row: PaymentRow): void {
  if (row.status !== 'authorised') return
  const hours = context.orderTerms.find(row.psp_reference)?.capture_delay_hours
  if (hours === null || hours === undefined) return
  context.orderTerms.setDue(row.psp_reference, new Date(context.now().getTime() + hours * HOUR_MS).toISOString())
}

/**
 * Runs every delayed capture due by the sandbox's clock, each dated when it fell due. It runs before
 * anything reads or changes a payment's state (updated-payments, captures, refunds, cancels, the
 * sandbox's payment list), so a moved clock shows the capture the next time the shop polls, as a
 * timer would have, and a test needs no timer to wait for.
 */
export function runDueCaptures(context: SandboxContext): void {
  const due = context.orderTerms.due(context.now().toISOString())
  if (due.length === 0) return
  context.db.transaction(() => {
    for (const terms of due) {
      const row = findPayment(context, 'psp_reference', terms.psp_reference)
      if (row && OPEN.includes(row.status) && row.captured < row.value) captureRest(context, row, terms.capture_due_at!)
      context.orderTerms.setDue(terms.psp_reference, null)
    }
  })()
}
