/** @jsxImportSource preact */
/**
 * A card form as a Preact component: the shop's own markup and labels, card-fields attached once
 * the inputs exist (and detached when the component goes), the card encrypted with card-jwe on
 * submit. The component holds no card value in its state: the inputs own them, as they should.
 */
import { attachCardFields, type CardFieldMessages, type CardFields } from '@card-jwe/card-fields'
import { encryptCard, type EncryptionCertificate } from 'card-jwe'
import { useEffect, useRef, useState } from 'preact/hooks'

export interface CardFormProps {
  /** The processor's certificate, imported once with card-jwe's `importCertificate`. */
  readonly certificate: EncryptionCertificate
  /** Called with the card's JWE; send it to your backend. */
  readonly onEncrypted: (jwe: string) => void | Promise<void>
  /** The words in the page's language (`messages` of `@card-jwe/card-fields/locales/nl`, or your own). */
  readonly messages?: CardFieldMessages
}

export function CardForm({ certificate, onEncrypted, messages }: CardFormProps) {
  const number = useRef<HTMLInputElement>(null)
  const expiry = useRef<HTMLInputElement>(null)
  const securityCode = useRef<HTMLInputElement>(null)
  const numberError = useRef<HTMLParagraphElement>(null)
  const expiryError = useRef<HTMLParagraphElement>(null)
  const securityCodeError = useRef<HTMLParagraphElement>(null)
  const securityCodeLabel = useRef<HTMLLabelElement>(null)
  const securityCodeField = useRef<HTMLDivElement>(null)
  const status = useRef<HTMLParagraphElement>(null)
  const fields = useRef<CardFields | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    fields.current = attachCardFields({
      fields: { number: number.current!, expiry: expiry.current!, securityCode: securityCode.current! },
      errors: { number: numberError.current!, expiry: expiryError.current!, securityCode: securityCodeError.current! },
      announcer: status.current!,
      securityCodeLabel: securityCodeLabel.current!,
      securityCodeContainer: securityCodeField.current!,
      ...(messages ? { messages } : {}),
    })
    return () => fields.current?.destroy()
  }, [messages])

  async function submit(event: Event) {
    event.preventDefault()
    const card = fields.current!
    if (!card.validate()) return
    setBusy(true)
    try {
      await onEncrypted(await encryptCard(card.values(), certificate))
      card.clear()
    } finally {
      setBusy(false)
    }
  }

  return (
    <form onSubmit={submit} noValidate>
      <label for="cf-number">Card number</label>
      <input id="cf-number" ref={number} type="text" inputMode="numeric" autoComplete="cc-number" disabled={busy} />
      <p id="cf-number-error" ref={numberError} hidden />
      <label for="cf-expiry">Expiry date (MM/YY)</label>
      <input id="cf-expiry" ref={expiry} type="text" inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" disabled={busy} />
      <p id="cf-expiry-error" ref={expiryError} hidden />
      <div ref={securityCodeField}>
        <label for="cf-cvc" ref={securityCodeLabel}>
          Security code
        </label>
        <input id="cf-cvc" ref={securityCode} type="text" inputMode="numeric" autoComplete="cc-csc" disabled={busy} />
        <p id="cf-cvc-error" ref={securityCodeError} hidden />
      </div>
      <p ref={status} role="status" />
      <button type="submit" disabled={busy}>
        Pay
      </button>
    </form>
  )
}
