export { answerChallenge, CHALLENGE_PAGE_TIMEOUT_MS } from './testing/answer-challenge.js'
export type { ChallengeElement, ChallengeFrame, ChallengePage } from './testing/answer-challenge.js'
export { completeShopperStep } from './testing/shopper-step.js'
export { ShopperStepError, type ShopperStepErrorCode } from './testing/shopper-step-error.js'
export type { RedirectAction, ShopperAction, ShopperStepDetails, ThreeDSAction } from './testing/shopper-step.js'
export { startTestSandbox } from './testing/start-test-sandbox.js'
export type { TestSandbox } from './testing/start-test-sandbox.js'
export { startSandbox } from './start-sandbox.js'
export type { RunningSandbox, SandboxOptions } from './start-sandbox.js'
export { CHALLENGE_ANSWER } from './pages/threeds.js'
export type { ReadyMadeShop } from './handlers/registration.js'
export { REGISTRATION_PATH, SETTINGS_BATCH_PATH, SETTINGS_PATH } from './handlers/registration.js'
export { SANDBOX_PAYMENTS_MAX_LIMIT } from './handlers/sandbox-payments.js'
export type {
  SandboxAmount,
  SandboxModification,
  SandboxPayment,
  SandboxPaymentMethod,
  SandboxPaymentsAnswer,
} from './handlers/sandbox-payments.js'
