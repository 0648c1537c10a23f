/**
 * The one transition table of a payment attempt. Pure: the ledger, the checkout handlers and the
 * poller all ask it, and every write that follows is a compare-and-set on the attempt's version.
 */

/**
 * An attempt's state. `created`: the row and its idempotency key are stored, the call not answered
 * yet. `confirming`: the shopper's step is done and the service confirms the payment later (a
 * details answer `Received` or `Pending`): only the feed ends it, and nothing is sent for it again.
 */
export const ATTEMPT_STATES = Object.freeze([
  'created',
  'pending',
  'action_required',
  'confirming',
  'error',
  'refused',
  'authorised',
  'partially_captured',
  'captured',
  'partially_refunded',
  'refunded',
  'cancelled',
] as const)
/** Where an attempt stands; see {@link ATTEMPT_STATES} and {@link transition}. */
export type AttemptState = (typeof ATTEMPT_STATES)[number]

/** Higher is further along; failures rank below every success, so a late failure never wins. */
const RANK: Readonly<Record<AttemptState, number>> = {
  created: 0,
  pending: 1,
  action_required: 2,
  confirming: 3,
  error: 4,
  refused: 4,
  authorised: 10,
  partially_captured: 11,
  captured: 12,
  partially_refunded: 13,
  refunded: 14,
  cancelled: 14,
}

/** What an attempt's payment does, as messages say it after "its payment" ("failed", not "is error"). */
export const STATE_IN_WORDS: Readonly<Record<AttemptState, string>> = {
  created: 'is not sent yet',
  pending: 'is waiting for the payment service',
  action_required: 'is waiting for a shopper step',
  confirming: 'is being confirmed',
  error: 'failed',
  refused: 'was refused',
  authorised: 'is authorised',
  partially_captured: 'is partially captured',
  captured: 'is captured',
  partially_refunded: 'is partially refunded',
  refunded: 'is refunded',
  cancelled: 'was cancelled',
}

/** Final and failed: the order may be paid again with a new attempt. */
export const FAILED_STATES: ReadonlySet<AttemptState> = new Set(['error', 'refused'])
/** The money was reserved (and maybe moved): the order is paid, whatever arrives later. */
export const PAID_STATES: ReadonlySet<AttemptState> = new Set([
  'authorised',
  'partially_captured',
  'captured',
  'partially_refunded',
  'refunded',
])
/** The service took the payment at some point: paid, or authorised then cancelled by the merchant. */
export const TOOK_PAYMENT: ReadonlySet<AttemptState> = new Set([...PAID_STATES, 'cancelled'])
/** Paid states in which the service still holds the shopper's money (a refunded one gave it back). */
export const HOLDING_MONEY: ReadonlySet<AttemptState> = new Set([...PAID_STATES].filter((state) => state !== 'refunded'))
/** A move that starts holding the shopper's money (paid from unpaid): a second one for an order is PAID_TWICE. */
export const movesIntoMoneyHeld = (from: AttemptState, to: AttemptState): boolean => HOLDING_MONEY.has(to) && !PAID_STATES.has(from)
/** Another attempt of the order than number `number` holding money, if any. */
export const otherHoldingMoney = <A extends { readonly number: number; readonly state: AttemptState }>(
  attempts: readonly A[],
  number: number,
): A | undefined => attempts.find((a) => a.number !== number && HOLDING_MONEY.has(a.state))
/** No answer yet, or an answer saying "wait": a retry re-sends with the same idempotency key. */
export const UNSETTLED_STATES: ReadonlySet<AttemptState> = new Set(['created', 'pending'])

/** Shopper steps an attempt may be abandoned at for a new one (Back from the bank, a challenge that would not load). */
export const ABANDONABLE_RESULT_CODES: ReadonlySet<string> = new Set(['RedirectShopper', 'ChallengeShopper', 'IdentifyShopper'])

/** `move`: write the new state; `same`: the state stays (amounts or the answer may change); `ignore`: never write it. */
export type TransitionVerdict = 'move' | 'same' | 'ignore'

/** May an attempt in `from` be put in `to`? States only move forward; failures are terminal. */
export function transition(from: AttemptState, to: AttemptState): TransitionVerdict {
  if (from === to) return 'same'
  if (FAILED_STATES.has(from)) return 'ignore'
  // A late failure never overwrites a success (spec: pspReference and authorisation are permanent).
  if (FAILED_STATES.has(to) && RANK[from] >= RANK.authorised) return 'ignore'
  // Spec "Endpoints" rule 5: cancel applies to an authorised payment not yet captured.
  if (to === 'cancelled' && RANK[from] > RANK.authorised) return 'ignore'
  if (from === 'cancelled') return 'ignore'
  return RANK[to] > RANK[from] ? 'move' : 'ignore'
}

/**
 * The state a payment or payment-details answer puts an attempt in (spec: "Payment response").
 * `afterStep`: a details answer, whose "wait" (`Received`, `Pending`) comes after the shopper's step.
 */
export function stateOfResultCode(resultCode: string, hasAction: boolean, afterStep = false): AttemptState {
  if (resultCode === 'Authorised') return 'authorised'
  // A shopper's cancel at the bank is `Cancelled`: a failed attempt, not a merchant's cancel.
  if (resultCode === 'Refused' || resultCode === 'Cancelled') return 'refused'
  if (resultCode === 'Error') return 'error'
  if (hasAction || ABANDONABLE_RESULT_CODES.has(resultCode)) return 'action_required'
  return afterStep ? 'confirming' : 'pending'
}

const FEED_STATES: Readonly<Record<string, AttemptState>> = {
  identify_shopper: 'action_required',
  challenge_shopper: 'action_required',
  redirect_shopper: 'action_required',
  authorised: 'authorised',
  partially_captured: 'partially_captured',
  captured: 'captured',
  partially_refunded: 'partially_refunded',
  refunded: 'refunded',
  cancelled: 'cancelled',
  refused: 'refused',
}

/** A step's status in the feed, as the resultCode its lost answer would have had: the step stays abandonable. */
const STEP_RESULT_CODES: Readonly<Record<string, string>> = {
  identify_shopper: 'IdentifyShopper',
  challenge_shopper: 'ChallengeShopper',
  redirect_shopper: 'RedirectShopper',
}

/** The state an updated-payments status means; undefined for a status this package does not know. */
export function stateOfPaymentStatus(status: string): AttemptState | undefined {
  return Object.hasOwn(FEED_STATES, status) ? FEED_STATES[status] : undefined
}

/**
 * The resultCode the poller stores for an attempt moved to `state` by a feed `status`: a step's own
 * code ("Pending" would make a step the shopper never saw block every new try).
 */
export function resultCodeOfFeed(status: string, state: AttemptState): string {
  return Object.hasOwn(STEP_RESULT_CODES, status) ? STEP_RESULT_CODES[status]! : resultCodeOfState(state)
}

/** The resultCode the page is told for an attempt the poller settled (its own answer was lost). */
export function resultCodeOfState(state: AttemptState): string {
  if (PAID_STATES.has(state)) return 'Authorised'
  if (state === 'refused') return 'Refused'
  if (state === 'error') return 'Error'
  if (state === 'cancelled') return 'Cancelled'
  return 'Pending'
}
