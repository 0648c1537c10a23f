import { collectBrowserInfo } from '@card-jwe/browser-info'
import { attachCardFields } from '@card-jwe/card-fields/core'
import { handleAction } from '@card-jwe/checkout-actions'
import { encryptCard, importCertificate, toPaymentMethod, type EncryptionCertificate } from 'card-jwe'
import { focusFrame } from './lib/focus-frame.js'
import { outcomeOf } from './lib/outcome.js'
import { refusal, request } from './lib/request.js'
import { warmUp } from './lib/warm-up.js'
import type { Checkout, CheckoutEvent, CheckoutOptions, CheckoutResult } from './types.js'

/** What the back end's payments and payment-details answer the page. */
interface Answer {
  /** Absent in a body the page could not read. */
  readonly resultCode?: string
  readonly action?: { readonly type: string; readonly subtype?: string }
}

/**
 * Mounts the whole checkout on the shop's `form` and the inputs it already has: loads the checkout
 * config and imports its certificate at once, encrypts the card at Pay, runs 3-D Secure and
 * redirects, and ends each payment in one {@link CheckoutResult} for `onResult`. On the page a
 * redirect method returns to (`orderId` and `redirectResult` in its address) it sends the details
 * once; a reload of that page sends them again, and the back end answers from its ledger.
 */
export function mountCheckout(form: HTMLFormElement, options: CheckoutOptions): Checkout {
  const { messages: words, cardMessages, baseUrl = '', actionContainer: area, ...shop } = options
  const announcer = options.announcer
  const button = options.payButton ?? form.querySelector<HTMLButtonElement>('[type=submit]')
  const fields = attachCardFields({ ...shop, messages: cardMessages })
  let busy = false
  let leftForBank = false
  let destroyed = false
  /** Ends the action under way (a challenge's Cancel); checkout-actions then rejects with ERR_ABORTED. */
  let abort: AbortController | undefined

  // The shop's callbacks run apart from the flow: one that throws is reported, and the payment goes on.
  const onEvent = (event: CheckoutEvent) => queueMicrotask(() => options.onEvent?.(event))
  const say = (text: string) => {
    if (announcer) announcer.textContent = text
  }
  const setBusy = (on: boolean) => {
    busy = on
    if (button) button.disabled = on
    fields.setDisabled(on)
  }
  const finish = (result: CheckoutResult) => {
    // A page that unmounted (React's Strict Mode mounts twice) hears nothing more from this instance.
    if (destroyed) return
    // Pay stays off once paid, and while the outcome is still to come.
    setBusy(result.kind === 'paid' || result.kind === 'pending')
    if (result.kind === 'paid' || result.kind === 'refused') fields.clear()
    say(result.message)
    onEvent({ type: 'result', detail: result.kind, code: result.code })
    queueMicrotask(() => options.onResult(result))
  }
  const fail = (error: unknown) => finish(outcomeOf((error as { code?: string }).code ?? 'INTERNAL', words))

  let certificate: Promise<EncryptionCertificate> | undefined
  const loadCertificate = () =>
    (certificate ??= request<{ certificatePem: string; checkoutReady: boolean; serviceReachable: boolean }>(`${baseUrl}/api/config`)
      .then((config) => {
        if (!config.checkoutReady || !config.serviceReachable) throw refusal('SERVICE_UNREACHABLE')
        return importCertificate(config.certificatePem)
      })
      .then(warmUp)
      .catch((error: unknown) => {
        certificate = undefined // the next Pay loads it again
        throw error
      }))
  // Imported and warmed now, not at Pay: the first JWE after Pay costs about what a later one does.
  const ready = loadCertificate().then(
    () => {
      onEvent({ type: 'ready' })
      return true
    },
    () => false,
  )

  /** Runs the answer's actions, sending each step's details once, to its final result. */
  async function follow(answer: Answer, orderId: string | number): Promise<void> {
    // A destroyed instance starts no step: the page mounted again runs it (Strict Mode mounts twice).
    for (let action = answer.action; action && !destroyed; action = answer.action) {
      const challenge = action.subtype === 'challenge'
      onEvent({ type: 'action', detail: action.type })
      say(action.type === 'redirect' ? words.redirecting : challenge ? words.challenge : words.processing)
      area.hidden = !challenge
      const watch = focusFrame(area)
      abort = new AbortController()
      const outcome = await handleAction(action, { container: area, signal: abort.signal, challengeTitle: words.challenge }).finally(() => {
        watch.disconnect()
        area.hidden = true
      })
      if (outcome.kind === 'redirecting') {
        leftForBank = true // Pay stays off: the page is leaving
        return
      }
      answer = await request<Answer>(`${baseUrl}/api/payment-details`, { orderId, details: outcome.details })
    }
    // A 2xx whose body could not be read (`{}`): the payment may have gone, its outcome is to come.
    finish(outcomeOf(answer.resultCode ?? 'OUTCOME_PENDING', words))
  }

  async function pay(method: object | Promise<object>, storePaymentMethod?: boolean): Promise<void> {
    if (busy) return
    announcer?.focus() // Pay is about to be disabled: the focus goes to the status, not to <body>
    setBusy(true)
    say(words.processing)
    try {
      const order = typeof options.order === 'function' ? options.order() : options.order
      if (!order) throw refusal('ORDER_NOT_FOUND')
      const paymentMethod = await method
      if (destroyed) return // unmounted while the card was encrypted: the page mounted again pays
      const type = (paymentMethod as { type: string }).type
      onEvent({ type: 'submit', detail: type })
      const { id, reference, amount } = order
      const body = {
        orderId: id,
        reference,
        amount,
        paymentMethod,
        storePaymentMethod,
        ...(type === 'scheme' && { browserInfo: collectBrowserInfo() }),
      }
      await follow(await request<Answer>(`${baseUrl}/api/payments`, body), id)
    } catch (error) {
      fail(error)
    }
  }

  const onSubmit = (event: Event) => {
    event.preventDefault()
    if (busy) return
    if (!fields.validate()) {
      say(words.fix)
      onEvent({ type: 'invalid' })
      return
    }
    // Encrypted at submit, so its generationtime is fresh.
    void pay(
      loadCertificate().then((key) => encryptCard(fields.values(), key).then(toPaymentMethod)),
      options.storePaymentMethod?.(), // JSON leaves it out when undefined
    )
  }
  // Back from the bank, the page restored from the bfcache as it left ("Taking you to your bank").
  const onPageShow = (event: PageTransitionEvent) => {
    if (event.persisted && leftForBank) {
      leftForBank = false
      fail({ code: 'RETURNED_BACK' })
    }
  }
  form.addEventListener('submit', onSubmit)
  addEventListener('pageshow', onPageShow)

  const params = new URL(options.url ?? location.href).searchParams
  const orderId = params.get('orderId')
  const redirectResult = params.get('redirectResult')
  if (orderId && redirectResult) {
    // A reload sends them again: the back end answers the same details from its ledger, never calling twice.
    setBusy(true)
    say(words.processing)
    request<Answer>(`${baseUrl}/api/payment-details`, { orderId, details: { redirectResult } })
      .then((answer) => follow(answer, orderId))
      .catch(fail)
  }

  return {
    ready,
    pay,
    cancel: () => abort?.abort(),
    destroy() {
      abort?.abort() // a step under way ends, its frame with it
      form.removeEventListener('submit', onSubmit)
      removeEventListener('pageshow', onPageShow)
      setBusy(false) // the form as it was, for the checkout mounted on it next
      // Busy for good: a pay() on this instance (a kept reference) starts nothing.
      busy = destroyed = true
      fields.destroy()
    },
  }
}
