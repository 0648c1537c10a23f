import type * as z from 'zod'

/** What the rules read of a payment request, parsed or as the service got it. */
interface RecurringFields {
  readonly paymentMethod?: unknown
  readonly shopperReference?: unknown
  readonly storePaymentMethod?: unknown
  readonly shopperInteraction?: unknown
  readonly recurringProcessingModel?: unknown
  readonly browserInfo?: unknown
}

const WITHOUT_SHOPPER = 'not without the shopper (recurringProcessingModel Subscription or UnscheduledCardOnFile)'

/**
 * Saving a card and paying with a saved one, as the widely used checkout API does: saving is the
 * shopper's own payment (`Ecommerce`, `CardOnFile`); a saved card is `ContAuth` with its owner's
 * `shopperReference`, and either the shopper is there (`CardOnFile`, the code's JWE by the brand)
 * or the shop charges it alone (`Subscription`, `UnscheduledCardOnFile`: no JWE, no browser data).
 * Each break names the field and the rule, never a value.
 */
export function checkRecurringRules(body: RecurringFields, context: z.RefinementCtx): void {
  const rule = (path: PropertyKey[], message: string) => context.addIssue({ code: 'custom', path, message })
  const method = (typeof body.paymentMethod === 'object' && body.paymentMethod !== null ? body.paymentMethod : {}) as Record<
    string,
    unknown
  >
  const model = body.recurringProcessingModel
  if (Object.hasOwn(method, 'storedPaymentMethodId')) {
    if (body.shopperReference === undefined) rule(['shopperReference'], 'required with paymentMethod.storedPaymentMethodId (its owner)')
    if (body.storePaymentMethod === true) rule(['storePaymentMethod'], 'not with paymentMethod.storedPaymentMethodId (saved already)')
    if (body.shopperInteraction !== 'ContAuth') rule(['shopperInteraction'], 'ContAuth with paymentMethod.storedPaymentMethodId')
    if (model === undefined) rule(['recurringProcessingModel'], 'required with paymentMethod.storedPaymentMethodId')
    if (model === 'Subscription' || model === 'UnscheduledCardOnFile') {
      if (method.jwe !== undefined) rule(['paymentMethod', 'jwe'], WITHOUT_SHOPPER)
      if (body.browserInfo !== undefined) rule(['browserInfo'], WITHOUT_SHOPPER)
    }
    return
  }
  if (body.storePaymentMethod === true && body.shopperReference === undefined)
    rule(['shopperReference'], 'required with storePaymentMethod (whose card it saves)')
  if (body.shopperInteraction === 'ContAuth') rule(['shopperInteraction'], 'ContAuth only with paymentMethod.storedPaymentMethodId')
  if (model !== undefined && (body.storePaymentMethod !== true || model !== 'CardOnFile')) {
    rule(['recurringProcessingModel'], 'CardOnFile with storePaymentMethod, else only with paymentMethod.storedPaymentMethodId')
  }
}
