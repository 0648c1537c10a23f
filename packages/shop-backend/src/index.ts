export { createShopBackend } from './create-shop-backend.js'
export { DEFAULT_CHECKOUT_PATHS } from './shop-backend-types.js'
export type { CheckoutPaths, Registration, RequestInfo, ShopBackend, ShopBackendOptions, ShopOrder } from './shop-backend-types.js'
export { createPoller, DEFAULT_MAX_PAGES_PER_POLL, DEFAULT_POLL_INTERVAL_MS } from './create-poller.js'
export type { Poller, PollerStartOptions, PollReport } from './create-poller.js'
export { ShopBackendError } from './errors.js'
export type { ShopBackendErrorCode } from './errors.js'
export { PaymentServiceError } from './payment-service.js'
export type {
  FeedPage,
  FeedRecord,
  KeyedCall,
  MerchantService,
  ModificationAnswer,
  OnboardingLink,
  OnboardingProblem,
  PaymentService,
  ErasureRequest,
  RegisterShop,
  SavedCard,
  SavedCardRemoval,
  StoredCard,
  ServiceContractor,
  ServiceCountry,
  ServiceCredentials,
  ServiceFailureKind,
  ServiceIndustryCode,
  ServiceOnboardingStatus,
  ServiceStore,
  ShopService,
  StorePaymentMethodState,
  StorePaymentMethodsAnswer,
} from './payment-service.js'
export { connectServiceClient, merchantServiceFromClient, paymentServiceFromClient } from './payment-service-from-client.js'
export { ONBOARDING_RETURN_WAIT_MS } from './merchant-setup.js'
export type { MerchantSetup, SetupLists } from './merchant-setup.js'
export { ONBOARDED_STATUS } from './lib/setup-state.js'
export type { MerchantSetupState } from './lib/setup-state.js'
export { createSecretBox, generateSecretKey } from './secret-box.js'
export type { SecretBox, SecretBoxOptions } from './secret-box.js'
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
  QueuedChange,
  WrittenAttempt,
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
export type { ModificationResult, ModifyOptions } from './ledger/modify.js'
export type { ErasureRequests } from './lib/shopper-data.js'
export type { ResealReport } from './lib/reseal-secrets.js'
export { SHOP_SIDE_PATHS } from './http/shop-side-routes.js'
export { httpStatusOf } from './http/status-of-code.js'
export type { FailureThrottleOptions } from './lib/failure-throttle.js'
export type { BackendContext } from './lib/context.js'
export { LeaseLostError } from './store.js'
export type { Lease, LeaseAnswer, LeaseClaim } from './store.js'
