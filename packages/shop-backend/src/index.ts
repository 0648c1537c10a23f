export { createShopBackend } from './create-shop-backend.js'
export { DEFAULT_CHECKOUT_PATHS, DEFAULT_HEALTH_PATHS } from './shop-backend-types.js'
export type {
  CheckoutConfig,
  CheckoutPaths,
  HealthPaths,
  Registration,
  RequestInfo,
  ShopBackend,
  ShopBackendOptions,
  ShopOrder,
} from './shop-backend-types.js'
export { createPoller, DEFAULT_MAX_PAGES_PER_POLL, DEFAULT_POLL_INTERVAL_MS } from './poller/create-poller.js'
export type { Poller, PollerStartOptions, PollReport } from './poller/create-poller.js'
export { ShopBackendError } from './errors.js'
export type { ShopBackendErrorCode } from './errors.js'
export { PaymentServiceError } from './payment-service.js'
export type { FeedPage, FeedRecord } from './updated-payments-feed.js'
export type {
  KeyedCall,
  MerchantService,
  ModificationAnswer,
  OnboardingLink,
  OnboardingProblem,
  PaymentService,
  RefundCall,
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
export { ONBOARDING_RETURN_WAIT_MS } from './setup/merchant-setup.js'
export type { MerchantSetup, SetupLists } from './setup/merchant-setup.js'
export { ONBOARDED_STATUS } from './setup/setup-state.js'
export type { MerchantSetupState } from './setup/setup-state.js'
export type { LedgerOfShop } from './setup/connect-shop.js'
export { createSecretBox, generateSecretKey } from './secret-box.js'
export type { SecretBox, SecretBoxOptions } from './secret-box.js'
export type {
  AppliedChange,
  AttemptPatch,
  AttemptRecord,
  DismissedDelivery,
  DismissedProblem,
  DismissedRecords,
  LedgerStore,
  ModificationKind,
  ModificationPatch,
  ModificationRecord,
  Money,
  OrderChange,
  OutboxEntry,
  QueuedChange,
  RefundLine,
  SentLine,
  WrittenAttempt,
  PollBatch,
  PollBatchResult,
  PollProblem,
} from './store/ledger-store.js'
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
} from './ledger/transitions.js'
export type { AttemptState, TransitionVerdict } from './ledger/transitions.js'
export type { ModificationResult, ModifyOptions } from './ledger/modify.js'
export type { ErasureRequests } from './ledger/shopper-data.js'
export type { SavedCardCharge, SavedCardChargeResult } from './ledger/charge-saved-card.js'
export type { SavedCardChoice } from './ledger/saved-card-check.js'
export type { ResealReport } from './reseal-secrets.js'
export { SHOP_SIDE_PATHS } from './http/shop-side-routes.js'
export { httpStatusOf } from './http/status-of-code.js'
export { DEFAULT_ADMIN_BASE_PATH } from './http/admin-routes.js'
export type { AdminOptions } from './http/admin-routes.js'
export type { AdminAttempt, AdminLine, AdminModification, AdminOrderView, CardSummary } from './ledger/order-view.js'
export type { ProblemRetry } from './poller/retry-problem.js'
export type { FailureThrottleOptions } from './lib/failure-throttle.js'
export type { BackendContext } from './backend-context.js'
export { LeaseLostError } from './store/ledger-store.js'
export type { Lease, LeaseAnswer, LeaseClaim } from './store/ledger-store.js'
export { DEFAULT_MAX_POLL_LAG_MS, DEFAULT_READINESS_TIMEOUT_MS } from './health/readiness.js'
export type { HealthStatus, PollerCheck, Readiness, ReadinessCheck, ReadinessOptions, RegistrationCheck } from './health/readiness.js'
export type { Log, LogFields, LogLevel, ShopBackendLog, StructuredLogger } from './telemetry/log.js'
export { METRICS } from './telemetry/metric-names.js'
export type { TelemetryOptions } from './telemetry/backend-telemetry.js'
