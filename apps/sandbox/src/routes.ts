import { cancel, capture, refund } from './handlers/modifications.js'
import { checkoutPaymentMethods, clientKey, subjectErasure, unsubscribe } from './handlers/checkout.js'
import { createPayment } from './handlers/payments.js'
import { paymentDetails } from './handlers/payment-details.js'
import { ENDPOINTS, type EndpointName } from '@card-jwe/service-client'
import { register } from './handlers/registration.js'
import { connectBackofficeUser, inbox, sendVerificationEmail } from './handlers/account.js'
import { connectContractor, listContractors } from './handlers/contractors.js'
import { createOnboardingLink, onboardingStatus } from './handlers/onboarding.js'
import { countries, industryCodes } from './handlers/reference-lists.js'
import { createStore, listStores, setStorePaymentMethods, updateStore } from './handlers/stores.js'
import { onboardingPage, onboardingSubmit } from './pages/onboarding.js'
import { sandboxPayments } from './handlers/sandbox-payments.js'
import { updatedPayments } from './handlers/updated-payments.js'
import type { Handler } from './http/handler.js'
import { pageScript } from './pages/page.js'
import { bankDecision, bankPage } from './pages/redirect.js'
import { acsAnswer, acsPage, challengeNotification, methodNotification, methodPage } from './pages/threeds.js'

/** A method, a path template with `{name}` segments, and what answers it. */
export interface Route {
  readonly method: string
  readonly path: string
  readonly handler: Handler
}

/** The handler of each service endpoint; its method and path come from the client's table. */
const SERVICE_HANDLERS: { readonly [name in EndpointName]: Handler } = {
  register,
  sendVerificationEmail,
  connectBackofficeUser,
  listContractors,
  connectContractor,
  industryCodes,
  countries,
  listStores,
  createStore,
  updateStore,
  setStorePaymentMethods,
  onboardingStatus,
  createOnboardingLink,
  createPayment,
  paymentDetails,
  capture,
  refund,
  cancel,
  subjectErasure,
  updatedPayments,
  checkoutPaymentMethods,
  clientKey,
  webComponentClientKey: clientKey,
  unsubscribe,
}

/** Every path the sandbox answers, in the order they are matched: the spec's service endpoints, then the pages shoppers see. */
export const SANDBOX_ROUTES: readonly Route[] = [
  ...Object.entries(SERVICE_HANDLERS).map(([name, handler]) => {
    const { method, path } = ENDPOINTS[name as EndpointName]
    return { method, path, handler }
  }),
  { method: 'POST', path: '/threeds/method', handler: methodPage },
  { method: 'POST', path: '/threeds/method-notification', handler: methodNotification },
  { method: 'POST', path: '/threeds/acs', handler: acsPage },
  { method: 'POST', path: '/threeds/acs/answer', handler: acsAnswer },
  { method: 'POST', path: '/threeds/challenge-notification', handler: challengeNotification },
  { method: 'GET', path: '/redirect/{transaction}', handler: bankPage },
  { method: 'POST', path: '/redirect/{transaction}/{decision}', handler: bankDecision },
  { method: 'GET', path: '/onboarding/{token}', handler: onboardingPage },
  { method: 'POST', path: '/onboarding/{token}', handler: onboardingSubmit },
  { method: 'GET', path: '/sandbox/inbox', handler: inbox },
  { method: 'GET', path: '/sandbox/payments', handler: sandboxPayments },
  { method: 'GET', path: '/static/sandbox-page.js', handler: pageScript },
]
