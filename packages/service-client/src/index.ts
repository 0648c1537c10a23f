export { createServiceClient } from './create-service-client.js'
export {
  DEFAULT_ATTEMPT_TIMEOUT_MS,
  DEFAULT_BACKOFF,
  DEFAULT_DEADLINE_MS,
  REGISTRATION_PATH,
  REGISTRATION_TIMEOUT_MS,
  SANDBOX_BASE_URL,
  SANDBOX_DEFAULT_PORT,
} from './client-defaults.js'
export type {
  CallOptions,
  CallTimes,
  CheckoutPaymentMethodsQuery,
  IdempotentCall,
  RefundCall,
  RefundLine,
  OnboardingLink,
  ReadyMadeStoreRegistration,
  ServiceClient,
  ServiceClientOptions,
  ServiceCredentials,
  ShopRegistration,
  UnsubscribeRequest,
  UpdatedPaymentsQuery,
} from './service-client-types.js'
export { ServiceError, ServiceUnreachableError } from './errors.js'
export type { CallRecord, ServiceErrorBody, ServiceUnreachableCode } from './errors.js'
export type { Backoff } from './lib/backoff.js'
export type { FetchLike, FetchLikeAnswer, FetchLikeInit } from './fetch-like.js'
export { RETRIED_STATUSES } from './lib/send.js'
export { CALL_DURATION_METRIC } from './lib/call-telemetry.js'
export type { TelemetryOptions } from './lib/call-telemetry.js'
export {
  describeEndpoint,
  ENDPOINTS,
  SERVICE_PATH_PREFIX,
  SHOP_SIDE_PATHS,
  ShopRegistrationRequestSchema,
  UnsubscribeRequestSchema,
} from './endpoints.js'
export type { EndpointName, ServiceEndpoint } from './endpoints.js'
export {
  BackofficeUserResultSchema,
  ClientKeySchema,
  ContractorConnectionSchema,
  CountryListSchema,
  EmailVerificationResultSchema,
  ErasureResultSchema,
  IndustryCodeListSchema,
  KNOWN_PAYMENT_STATUSES,
  ModificationResultSchema,
  RegistrationResultSchema,
  StoreListSchema,
  StorePaymentMethodsResultSchema,
  StoreSchema,
  UnsubscribeResultSchema,
  UpdatedPaymentSchema,
  UpdatedPaymentsPageSchema,
} from './responses.js'
// Every type of the answers: each is a shape a caller may name.
export type * from './responses.js'
export { MAX_SIGNATURE_SKEW_SECONDS, SIGNATURE_HEADERS, signRequest } from './signing.js'
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.js'
