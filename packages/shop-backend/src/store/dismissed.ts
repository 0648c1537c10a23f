/**
 * What an operator dismissed (a poll problem, an order change the shop's callback kept refusing): kept
 * for the record, no longer reported as open, never applied or delivered again.
 */
import type { OrderChange } from './records.js'
import { changeOfText, columnsOf } from './ledger-rows.js'

/** A feed record the operator accepted as it is: not applied, and its sequence marked seen. */
export interface DismissedProblem {
  /** The feed record's sequence number. */
  readonly sequence: number
  /** The feed record as it came. */
  readonly change: Readonly<Record<string, unknown>>
  /** Why the poller could not apply it. */
  readonly reason: string
  /** Tries before it was dismissed. */
  readonly tries: number
  /** ISO 8601, when it was dismissed. */
  readonly dismissedAt: string
}

/** An order change the operator took out of the outbox: the shop's callback is not called with it again. */
export interface DismissedDelivery {
  /** Its outbox entry's id. */
  readonly id: number
  /** The change that was not delivered. */
  readonly change: OrderChange
  /** Failed deliveries before it was dismissed. */
  readonly tries: number
  /** ISO 8601, when it was dismissed. */
  readonly dismissedAt: string
}

/** The newest of each kind, newest first. */
export interface DismissedRecords {
  /** Dismissed poll problems. */
  readonly problems: DismissedProblem[]
  /** Dismissed deliveries. */
  readonly deliveries: DismissedDelivery[]
}

/** A dismissed_problems row. */
export interface DismissedProblemRow {
  sequence: number | string
  change: string
  reason: string
  tries: number
  dismissed_at: string
}

/** A dismissed_deliveries row. */
export interface DismissedDeliveryRow {
  id: number | string
  order_id: string
  change: string
  tries: number
  dismissed_at: string
}

/** The dismissed tables' columns, as their rows are read. */
export const DISMISSED_PROBLEM_COLUMNS = columnsOf<DismissedProblemRow>({
  sequence: true,
  change: true,
  reason: true,
  tries: true,
  dismissed_at: true,
})
export const DISMISSED_DELIVERY_COLUMNS = columnsOf<DismissedDeliveryRow>({
  id: true,
  order_id: true,
  change: true,
  tries: true,
  dismissed_at: true,
})

export const dismissedProblemOf = (row: DismissedProblemRow): DismissedProblem => ({
  sequence: Number(row.sequence),
  change: JSON.parse(row.change) as Record<string, unknown>,
  reason: row.reason,
  tries: row.tries,
  dismissedAt: row.dismissed_at,
})

export const dismissedDeliveryOf = (row: DismissedDeliveryRow): DismissedDelivery => ({
  id: Number(row.id),
  change: changeOfText(row.change),
  tries: row.tries,
  dismissedAt: row.dismissed_at,
})
