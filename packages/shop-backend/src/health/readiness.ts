import { type BackendContext, SETTING } from '../backend-context.js'
import { storeFailureOf } from '../lib/store-failure.js'
import { POLLER_LEASE } from '../poller/create-poller.js'
import { pollLagMs } from '../poller/poll-read-at.js'
import { leaseExpired } from '../store/lease.js'

/** A check's verdict, in the words of the health-check convention (`pass`, `warn`, `fail`). */
export type HealthStatus = 'pass' | 'warn' | 'fail'

/** One readiness check: its verdict and, unless it passed, a stable code saying why. Nothing else. */
export interface ReadinessCheck {
  /** `fail` takes the instance out of the balancer; `warn` is for a person to look at. */
  readonly status: HealthStatus
  /** Why it did not pass: `STORE_UNAVAILABLE`, `NOT_REGISTERED`, `CHECKOUT_CLOSED`, `NO_CERTIFICATE`, `POLLER_NOT_RUNNING`... */
  readonly code?: string
}

/** The registration's check: also the service's code when it refuses the stored shop's signature. */
export interface RegistrationCheck extends ReadinessCheck {
  /** `SIGNATURE_INVALID` or `SIGNATURE_STALE`, with code `SERVICE_REFUSES_SHOP`: the last poll was refused so. */
  readonly serviceCode?: string
}

/** The poller's check: also how long ago any instance last read the feed. */
export interface PollerCheck extends ReadinessCheck {
  /** Whether some instance (this one or another) holds the poller's lease now. */
  readonly leaseHeld?: boolean
  /** Milliseconds since any instance last read the feed; absent when none has yet. */
  readonly lagMs?: number
}

/** The readiness answer's body (`GET /readyz`), also what {@link ShopBackend.readiness} returns. */
export interface Readiness {
  /** `fail` when any check failed (503), else `warn` when any warned, else `pass` (both 200). */
  readonly status: HealthStatus
  /** Each check by name. */
  readonly checks: {
    /** The ledger's store answers a read. */
    readonly store: ReadinessCheck
    /**
     * The shop is registered with the service (a shop id and a service secret are stored); `warn`
     * `SERVICE_REFUSES_SHOP` while the service refuses their signature (the last poll said so).
     */
    readonly registration: RegistrationCheck
    /** A store is chosen: the checkout sells (`warn` `NO_CERTIFICATE`: the page is given no certificate to encrypt with). */
    readonly checkout: ReadinessCheck
    /** The poller's lease is held by some instance and the feed was read lately. */
    readonly poller: PollerCheck
  }
}

/** Options of readiness (`readiness` in the back end's options). */
export interface ReadinessOptions {
  /** How long since any instance last read the feed before the poller check says so; default {@link DEFAULT_MAX_POLL_LAG_MS}. */
  readonly maxPollLagMs?: number
  /**
   * What a poller that is not running or lags does to readiness: `warn` (default: the instance stays
   * in the balancer, payments still work, and the answer says so) or `fail` (503).
   */
  readonly pollerProblem?: 'warn' | 'fail'
  /** How long the store's reads may take before the store check fails; default {@link DEFAULT_READINESS_TIMEOUT_MS}. */
  readonly timeoutMs?: number
}

/**
 * A minute: twice the poller's default lease time, so a holder that died (its lease lapses after 30 s,
 * and another instance polls at its next tick) does not trip it, and a feed that stopped does.
 */
export const DEFAULT_MAX_POLL_LAG_MS = 60_000
/** Two seconds: below the usual balancer timeout, so the answer says what was slow. */
export const DEFAULT_READINESS_TIMEOUT_MS = 2_000

const NOT_CHECKED: ReadinessCheck = Object.freeze({ status: 'fail', code: 'NOT_CHECKED' })
const TIMED_OUT = Symbol('timed out')

/** What the stored settings and the lease say, read in one go (each read a store round trip). */
async function readState(context: BackendContext) {
  const [shopId, serviceSecret, storeId, lease, lagMs, refused] = await Promise.all([
    context.store.getSetting(SETTING.shopId),
    context.store.getSetting(SETTING.serviceSecret),
    context.store.getSetting(SETTING.storeId),
    context.store.readLease(POLLER_LEASE),
    pollLagMs(context),
    context.store.getSetting(SETTING.pollRefused),
  ])
  return { shopId, serviceSecret, storeId, lease, lagMs, refused }
}

/** Whether the back end can serve checkouts now, check by check; never throws, never says more than codes. */
export async function readinessOf(
  context: BackendContext,
  options: ReadinessOptions,
  /** Whether the back end was given the certificate the checkout config hands the page. */
  hasCertificate: boolean,
): Promise<Readiness> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)
  })
  let state: Awaited<ReturnType<typeof readState>> | typeof TIMED_OUT
  try {
    state = await Promise.race([readState(context), expired])
  } catch (error) {
    // A code of ours only: the store's own code and message stay in the log.
    const code = storeFailureOf(error).unavailable ? 'STORE_UNAVAILABLE' : 'STORE_ERROR'
    return failed({ status: 'fail', code })
  } finally {
    clearTimeout(timer)
  }
  if (state === TIMED_OUT) return failed({ status: 'fail', code: 'STORE_TIMEOUT' })

  const problem = options.pollerProblem ?? 'warn'
  const leaseHeld = state.lease !== undefined && !leaseExpired(state.lease, context.now().toISOString())
  const lagging = state.lagMs === undefined || state.lagMs > (options.maxPollLagMs ?? DEFAULT_MAX_POLL_LAG_MS)
  const lag = state.lagMs === undefined ? {} : { lagMs: state.lagMs }
  const poller: PollerCheck = !leaseHeld
    ? { status: problem, code: 'POLLER_NOT_RUNNING', leaseHeld, ...lag }
    : lagging
      ? { status: problem, code: 'POLLER_LAGGING', leaseHeld, ...lag }
      : { status: 'pass', leaseHeld, ...lag }
  const checks = {
    store: { status: 'pass' } as ReadinessCheck,
    registration: registrationCheck(state),
    checkout: (!state.storeId
      ? { status: 'fail', code: 'CHECKOUT_CLOSED' }
      : // Warn, not fail: a page of the shop's own may carry the certificate itself.
        hasCertificate
        ? { status: 'pass' }
        : { status: 'warn', code: 'NO_CERTIFICATE' }) as ReadinessCheck,
    poller,
  }
  return { status: overall(Object.values(checks)), checks }
}

/**
 * Warn, not fail, while the service refuses the shop's signature: the shop's other pages go on, and
 * taking every instance out of the balancer would mend nothing (the log says what does).
 */
function registrationCheck(state: { readonly [setting in 'shopId' | 'serviceSecret' | 'refused']: string | undefined }): RegistrationCheck {
  if (!state.shopId || !state.serviceSecret) return { status: 'fail', code: 'NOT_REGISTERED' }
  return state.refused ? { status: 'warn', code: 'SERVICE_REFUSES_SHOP', serviceCode: state.refused } : { status: 'pass' }
}

function failed(store: ReadinessCheck): Readiness {
  return { status: 'fail', checks: { store, registration: NOT_CHECKED, checkout: NOT_CHECKED, poller: NOT_CHECKED } }
}

function overall(checks: readonly ReadinessCheck[]): HealthStatus {
  if (checks.some((c) => c.status === 'fail')) return 'fail'
  return checks.some((c) => c.status === 'warn') ? 'warn' : 'pass'
}
