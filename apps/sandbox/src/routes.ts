import { cancel, capture, refund } from './handlers/modifications.js'
import { checkoutPaymentMethods, clientKey, subjectErasure, unsubscribe } from './handlers/checkout.js'
import { createPayment, paymentDetails } from './handlers/payments.js'
import { ENDPOINTS, type EndpointName } from '@card-jwe/service-client'
import { register } from './handlers/registration.js'
import { connectBackofficeUser, inbox, sendVerificationEmail } from './handlers/account.js'
import { connectContractor, listContractors } from './handlers/contractors.js'
import { createOnboardingLink, onboardingStatus } from './handlers/onboarding.js'
import { countries, industryCodes } from './handlers/reference-lists.js'
import { createStore, listStores, setStorePaymentMethods, updateStore } from './handlers/stores.js'
import { onboardingPage, onboardingSubmit } from './pages/onboarding.js'
import { updatedPayments } from './handlers/updated-payments.js'
import { Router, type Handler } from './http/router.js'
import { PAGE_SCRIPT } from './pages/page.js'
import { bankDecision, bankPage } from './pages/redirect.js'
import { acsAnswer, acsPage, challengeNotification, methodNotification, methodPage } from './pages/threeds.js'
import type { SandboxContext } from './context.js'

/** The handler of each service endpoint; its method and path come from the client's table. */
const SERVICE_HANDLERS: { readonly [name in EndpointName]: Handler<SandboxContext> } = {
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

/** Every path the sandbox answers: the spec's service endpoints, then the pages shoppers see. */
export function sandboxRoutes(): Router<SandboxContext> {
  const router = new Router<SandboxContext>()
  for (const [name, handler] of Object.entries(SERVICE_HANDLERS))
    router.add(ENDPOINTS[name as EndpointName].method, ENDPOINTS[name as EndpointName].path, handler)
  return router
    .add('POST', '/threeds/method', methodPage)
    .add('POST', '/threeds/method-notification', methodNotification)
    .add('POST', '/threeds/acs', acsPage)
    .add('POST', '/threeds/acs/answer', acsAnswer)
    .add('POST', '/threeds/challenge-notification', challengeNotification)
    .add('GET', '/redirect/{transaction}', bankPage)
    .add('POST', '/redirect/{transaction}/{decision}', bankDecision)
    .add('GET', '/onboarding/{token}', onboardingPage)
    .add('POST', '/onboarding/{token}', onboardingSubmit)
    .add('GET', '/sandbox/inbox', inbox)
    .add('GET', '/static/sandbox-page.js', () => ({ status: 200, script: PAGE_SCRIPT }))
}
