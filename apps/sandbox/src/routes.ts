import { cancel, capture, refund } from './handlers/modifications.js'
import { checkoutPaymentMethods, clientKey, subjectErasure, unsubscribe } from './handlers/checkout.js'
import { createPayment, paymentDetails } from './handlers/payments.js'
import { REGISTRATION_PATH } from '@card-jwe/service-client'
import { register } from './handlers/registration.js'
import { connectBackofficeUser, inbox, sendVerificationEmail } from './handlers/account.js'
import { connectContractor, listContractors } from './handlers/contractors.js'
import { createOnboardingLink, onboardingStatus } from './handlers/onboarding.js'
import { countries, industryCodes } from './handlers/reference-lists.js'
import { createStore, listStores, setStorePaymentMethods, updateStore } from './handlers/stores.js'
import { onboardingPage, onboardingSubmit } from './pages/onboarding.js'
import { updatedPayments } from './handlers/updated-payments.js'
import { Router } from './http/router.js'
import { PAGE_SCRIPT } from './pages/page.js'
import { bankDecision, bankPage } from './pages/redirect.js'
import { acsAnswer, acsPage, challengeNotification, methodNotification, methodPage } from './pages/threeds.js'
import type { SandboxContext } from './context.js'

const P = '/shopplatform/processor'

/** Every path the sandbox answers: the spec's service endpoints, then the pages shoppers see. */
export function sandboxRoutes(): Router<SandboxContext> {
  return new Router<SandboxContext>()
    .add('POST', REGISTRATION_PATH, register)
    .add('POST', '/email-verification-messages', sendVerificationEmail)
    .add('PUT', `${P}/backoffice-user`, connectBackofficeUser)
    .add('GET', `${P}/backoffice-user-contractors`, listContractors)
    .add('PUT', `${P}/contractor`, connectContractor)
    .add('GET', `${P}/industry-codes`, industryCodes)
    .add('GET', `${P}/countries`, countries)
    .add('GET', `${P}/stores`, listStores)
    .add('POST', `${P}/stores`, createStore)
    .add('PATCH', `${P}/stores/{store_id}`, updateStore)
    .add('PUT', `${P}/stores/{store_id}/payment-methods`, setStorePaymentMethods)
    .add('GET', `${P}/onboarding-status`, onboardingStatus)
    .add('POST', `${P}/onboarding-links`, createOnboardingLink)
    .add('POST', `${P}/stores/{store_id}/payments`, createPayment)
    .add('POST', `${P}/stores/{store_id}/payment-details`, paymentDetails)
    .add('POST', `${P}/payments/{psp_reference}/captures`, capture)
    .add('POST', `${P}/payments/{psp_reference}/refunds`, refund)
    .add('POST', `${P}/payments/{psp_reference}/cancels`, cancel)
    .add('POST', `${P}/payments/{psp_reference}/subject-erasure-requests`, subjectErasure)
    .add('GET', `${P}/updated-payments`, updatedPayments)
    .add('GET', `${P}/stores/{store_id}/checkout-payment-methods`, checkoutPaymentMethods)
    .add('GET', `${P}/stores/{store_id}/client-key`, clientKey)
    .add('GET', `${P}/web-component-client-key`, clientKey)
    .add('POST', `${P}/stores/{store_id}/unsubscribe-requests`, unsubscribe)
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
