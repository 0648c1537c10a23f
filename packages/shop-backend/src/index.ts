export { createShopBackend, DEFAULT_CHECKOUT_PATHS } from './create-shop-backend.js'
export type { CheckoutPaths, Registration, RequestInfo, ShopBackend, ShopBackendOptions, ShopOrder } from './create-shop-backend.js'
export { createPoller, DEFAULT_POLL_INTERVAL_MS } from './create-poller.js'
export type { Poller, PollerStartOptions, PollReport } from './create-poller.js'
export { ShopBackendError } from './errors.js'
export type { ShopBackendErrorCode } from './errors.js'
export { PaymentServiceError } from './payment-service.js'
export type {
  FeedPage,
  FeedRecord,
  KeyedCall,
  ModificationAnswer,
  PaymentService,
  RegisterShop,
  ServiceCredentials,
  ServiceFailureKind,
} from './payment-service.js'
export { connectServiceClient, paymentServiceFromClient } from './payment-service-from-client.js'
export { createSecretBox, generateSecretKey } from './secret-box.js'
export type { SecretBox } from './secret-box.js'
export type {
  AppliedChange,
  AttemptPatch,
  AttemptRecord,
  LedgerStore,
  ModificationKind,
  ModificationPatch,
  ModificationRecord,
  Money,
  OrderChange,
  OutboxEntry,
  PollBatch,
  PollBatchResult,
  PollProblem,
} from './store.js'
export {
  ABANDONABLE_RESULT_CODES,
  ATTEMPT_STATES,
  FAILED_STATES,
  PAID_STATES,
  resultCodeOfState,
  stateOfPaymentStatus,
  stateOfResultCode,
  transition,
  UNSETTLED_STATES,
} from './transitions.js'
export type { AttemptState, TransitionVerdict } from './transitions.js'
export type { ModificationResult, ModifyOptions } from './lib/modify.js'
export { SHOP_SIDE_PATHS } from './lib/shop-endpoints.js'
export type { FailureThrottleOptions } from './lib/failure-throttle.js'
export type { BackendContext } from './lib/context.js'
export { LeaseLostError } from './store.js'
export type { Lease, LeaseAnswer, LeaseClaim } from './store.js'
