export { createServiceClient, DEFAULT_RETRY_DELAYS_MS, DEFAULT_TIMEOUT_MS, REGISTRATION_PATH, SANDBOX_BASE_URL } from './create-service-client.js'
export type {
  CheckoutPaymentMethodsQuery,
  IdempotentCall,
  OnboardingLink,
  ReadyMadeStoreRegistration,
  ServiceClient,
  ServiceClientOptions,
  ServiceCredentials,
  ShopRegistration,
  UnsubscribeRequest,
  UpdatedPaymentsQuery,
} from './create-service-client.js'
export { ServiceError } from './errors.js'
export type { ServiceErrorBody } from './errors.js'
export {
  BackofficeUserResultSchema,
  ClientKeySchema,
  ContractorConnectionSchema,
  CountryListSchema,
  EmailVerificationResultSchema,
  ErasureResultSchema,
  IndustryCodeListSchema,
  ModificationResultSchema,
  RegistrationResultSchema,
  StoreListSchema,
  StorePaymentMethodsResultSchema,
  StoreSchema,
  UnsubscribeResultSchema,
  UpdatedPaymentSchema,
  UpdatedPaymentsPageSchema,
} from './responses.js'
export type {
  BackofficeUserResult,
  ContractorConnection,
  CountryList,
  EmailVerificationResult,
  ErasureResult,
  IndustryCodeList,
  ModificationResult,
  RegistrationResult,
  Store,
  StorePaymentMethodsResult,
  UnsubscribeResult,
  UpdatedPayment,
  UpdatedPaymentsPage,
} from './responses.js'
export { MAX_SIGNATURE_SKEW_SECONDS, SIGNATURE_HEADERS, signRequest } from './signing.js'
export { IDEMPOTENCY_KEY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.js'
