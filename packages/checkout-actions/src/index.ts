export { handleAction } from './handle-action.js'
export { performAction } from './perform-action.js'
export type { ActionOutcome, PerformOptions } from './perform-action.js'
export { prepareAction } from './prepare-action.js'
export type {
  ContainerSize,
  PreparedAction,
  PreparedChallenge,
  PreparedFingerprint,
  PreparedMethod,
  PreparedNoMethod,
  PreparedRedirect,
} from './prepare-action.js'
export { CheckoutActionError } from './errors.js'
export type { CheckoutActionErrorCode } from './errors.js'
export { CHALLENGE_TIMEOUT_MS, THREEDS_METHOD_TIMEOUT_MS } from './timeouts.js'
