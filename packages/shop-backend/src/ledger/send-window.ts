// When a stored capture, refund or cancel was last sent, and how long that send may still be out.
import type { ModificationRecord } from '../store/ledger-store.js'
import { MAX_CALL_DEADLINE_MS } from './details-claim.js'

/** How long after a send's stamp it may still be out: a dismiss waits this long. */
export const SEND_MAY_BE_OUT_MS = 2 * MAX_CALL_DEADLINE_MS

/**
 * The longest a send may begin after its stamp: with the call's deadline it ends within 35 s of the
 * stamp, so instance clocks may be 25 s apart before a dismiss could land while it is out.
 */
export const SEND_START_BUDGET_MS = 5_000

/** When a request's last send began: its first right after it was stored, a send again when it moved the row on. */
export const lastSendOf = (m: ModificationRecord): string => m.sentAgainAt ?? m.createdAt

/** Whether a send stamped at the row's last send may still begin now (a stall before the call may have outlasted it). */
export const mayStillBegin = (now: Date, m: ModificationRecord): boolean =>
  now.getTime() - Date.parse(lastSendOf(m)) <= SEND_START_BUDGET_MS
