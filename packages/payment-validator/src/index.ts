export { CURRENCY_TABLE_SOURCE, ISO_4217_MINOR_UNITS, minorUnitsOf } from './currencies.js'
export type { MinorUnitOverrides } from './currencies.js'
export { fromMinorUnits, toMinorUnits } from './minor-units.js'
export { ValidationError } from './errors.js'
export type { ValidationErrorCode, ValidationIssue } from './errors.js'
export { AmountSchema, CurrencyCodeSchema } from './schemas/amount.js'
export type { Amount } from './schemas/amount.js'
export { BrowserInfoSchema } from './schemas/browser-info.js'
export type { BrowserInfoBody } from './schemas/browser-info.js'
export {
  CardJwePaymentMethodSchema,
  CompactJweSchema,
  EncryptedFieldsPaymentMethodSchema,
  OtherPaymentMethodSchema,
  PaymentMethodSchema,
} from './schemas/payment-method.js'
export type { PaymentMethod } from './schemas/payment-method.js'
export {
  AddressSchema,
  LineItemSchema,
  MAX_CAPTURE_DELAY_HOURS,
  MetadataSchema,
  PaymentRequestSchema,
} from './schemas/payment-request.js'
export { checkOrderLineRules, LINE_ITEM_METHODS } from './schemas/order-lines.js'
export type { OrderLineFields } from './schemas/order-lines.js'
export { ISO_3166_ALPHA2_CODES, isIsoCountryCode } from './countries.js'
export {
  RECURRING_PROCESSING_MODELS,
  RecurringProcessingModelSchema,
  SavedCardPaymentMethodSchema,
  SHOPPER_INTERACTIONS,
  ShopperInteractionSchema,
  StoredPaymentMethodIdSchema,
} from './schemas/saved-card.js'
export type { SavedCardPaymentMethod } from './schemas/saved-card.js'
export type { PaymentRequest } from './schemas/payment-request.js'
export { RAW_CARD_FIELD_NAMES } from './schemas/raw-card-fields.js'
export {
  ServicePaymentDetailsRequestSchema,
  ServicePaymentMethodSchema,
  ServicePaymentRequestSchema,
} from './schemas/service-request.js'
export type { ServicePaymentDetailsRequest, ServicePaymentRequest } from './schemas/service-request.js'
export {
  ActionSchema,
  BrowserPaymentResultSchema,
  KNOWN_RESULT_CODES,
  PaymentResponseSchema,
  toBrowserPaymentResult,
} from './schemas/payment-response.js'
export type { BrowserPaymentResult, PaymentResponse } from './schemas/payment-response.js'
export {
  CaptureRequestSchema,
  OnboardingLinkSchema,
  OnboardingStatusSchema,
  PaymentDetailsRequestSchema,
  PaymentMethodsResponseSchema,
  RefundRequestSchema,
  ShopSettingSchema,
  ShopSettingsBatchSchema,
  ShopSettingsSchema,
  StoredPaymentMethodSchema,
} from './schemas/other-bodies.js'
export type {
  CaptureRequest,
  OnboardingStatus,
  PaymentDetailsRequest,
  PaymentMethodsResponse,
  RefundRequest,
  ShopSetting,
  StoredPaymentMethod,
} from './schemas/other-bodies.js'
export { DetailsSubmissionSchema, OrderIdSchema, PaymentSubmissionSchema } from './schemas/submission.js'
export type { DetailsSubmission, PaymentSubmission } from './schemas/submission.js'
export { checkSubmission } from './check-submission.js'
export type { ComparedField, OrderRecord, SubmissionCheck, SubmissionProblem } from './check-submission.js'
export { buildPaymentDetailsRequest, buildPaymentRequest, SHOP_ORDER_ID_KEY } from './build-payment-request.js'
export type { PaymentRequestParts, ShopPaymentConfig } from './build-payment-request.js'
export { buildSavedCardChargeRequest } from './build-saved-card-charge.js'
export type { SavedCardChargeParts } from './build-saved-card-charge.js'
export { DEFAULT_MAX_BODY_BYTES, parseJsonBody } from './parse-body.js'
export { declaredBodyLength } from './declared-body-length.js'
export { describeIssues, issuesOf, MISSING_AS_REQUIRED } from './lib/issues.js'
export { stringMatching } from './lib/string-matching.js'
export type { BodyResult } from './parse-body.js'
export {
  BackofficeUserRequestSchema,
  ConnectContractorRequestSchema,
  CONTRACTOR_TYPES,
  ContractorIdSchema,
  ContractorSchema,
  CountryCodeSchema,
  CreateStoreRequestSchema,
  EmailSchema,
  EmailVerificationRequestSchema,
  IndustryCodeSchema,
  OnboardingLinkRequestSchema,
  PhoneNumberSchema,
  SHOPPER_STATEMENT_MAX,
  ShopperStatementSchema,
  STORE_PAYMENT_METHOD_TYPES,
  StoreAddressSchema,
  StorePaymentMethodsRequestSchema,
  UpdateStoreRequestSchema,
  VerificationCodeSchema,
} from './schemas/merchant-setup.js'
export type {
  BackofficeUserRequest,
  Contractor,
  CreateStoreRequest,
  EmailVerificationRequest,
  StorePaymentMethodsRequest,
  UpdateStoreRequest,
} from './schemas/merchant-setup.js'
export { MAX_LOGGED_PATH_LENGTH, redactPathForLog } from './redact-path.js'
export { keyForMessage } from './key-for-message.js'
