/**
 * The shop's own card fields: as-you-type formatting and verdicts from card-jwe, errors inline on
 * blur and on submit, announced to screen readers. Values never leave the page except encrypted.
 */
import { expiryVerdict, formatCardNumber, holderNameVerdict, numberVerdict, securityCodeVerdict, type CardBrandType, type CardInput, type FieldRule, type FieldVerdict } from 'card-jwe'

const BRAND_NAMES: Record<CardBrandType, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  discover: 'Discover',
  'diners-club': 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
  bancontact: 'Bancontact',
}

type Field = 'number' | 'expiry' | 'cvc' | 'holderName'

const MESSAGES: Record<Field, Partial<Record<FieldRule, string>> & { default: string }> = {
  number: { required: 'Enter the card number.', characters: 'Use digits only.', brand: 'This card type is not accepted.', luhn: 'Check the card number.', default: 'The card number is incomplete.' },
  expiry: { required: 'Enter the expiry date as MM/YY.', month: 'The month must be 01 to 12.', expired: 'This card has expired.', 'too-far-ahead': 'Check the expiry year.', default: 'Enter the expiry date as MM/YY.' },
  cvc: { required: 'Enter the security code.', characters: 'Use digits only.', default: 'The security code is incomplete.' },
  holderName: { characters: 'Use letters only.', length: 'The name is too long.', default: 'Check the name.' },
}

export class CardForm {
  private readonly inputs: Record<Field, HTMLInputElement>
  private readonly brandLabel: HTMLElement
  private readonly cvcLabel: HTMLElement
  private readonly cvcField: HTMLElement

  constructor(private readonly form: HTMLFormElement) {
    const input = (id: string) => form.querySelector<HTMLInputElement>(`#${id}`)!
    this.inputs = { number: input('card-number'), expiry: input('card-expiry'), cvc: input('card-cvc'), holderName: input('card-holder') }
    this.brandLabel = form.querySelector('#card-brand')!
    this.cvcLabel = form.querySelector('#card-cvc-label')!
    this.cvcField = form.querySelector('#card-cvc-field')!
    this.inputs.number.addEventListener('input', () => this.onNumberInput())
    this.inputs.expiry.addEventListener('input', () => this.onExpiryInput())
    this.inputs.cvc.addEventListener('input', () => this.onTyping('cvc'))
    this.inputs.holderName.addEventListener('input', () => this.onTyping('holderName'))
    // On blur only a field the shopper typed into is judged: flagging an untouched one would shift
    // the layout under the pointer (a click on "pay with iDEAL" would be lost) and scold too early.
    for (const field of Object.keys(this.inputs) as Field[]) {
      this.inputs[field].addEventListener('blur', () => this.show(field, this.verdict(field), this.inputs[field].value.trim() !== ''))
    }
  }

  /** The card as typed, for encryptCard (which normalises it). */
  values(): CardInput {
    return { number: this.inputs.number.value, expiry: this.inputs.expiry.value, cvc: this.inputs.cvc.value, holderName: this.inputs.holderName.value }
  }

  /** Shows every field's error; focuses the first field in error. True when the card may be sent. */
  validate(): boolean {
    const invalid = (Object.keys(this.inputs) as Field[]).filter((field) => !this.show(field, this.verdict(field), true))
    if (invalid.length) this.inputs[invalid[0]!].focus()
    return invalid.length === 0
  }

  /** Forgets the card: called once the payment has a final result. */
  clear(): void {
    for (const input of Object.values(this.inputs)) input.value = ''
    this.onNumberInput()
  }

  setDisabled(disabled: boolean): void {
    for (const input of Object.values(this.inputs)) input.disabled = disabled
  }

  private brand() {
    return numberVerdict(this.inputs.number.value).brand
  }

  private verdict(field: Field): FieldVerdict {
    const value = this.inputs[field].value
    if (field === 'number') return numberVerdict(value)
    if (field === 'expiry') return expiryVerdict(value)
    if (field === 'cvc') return securityCodeVerdict(value, this.brand())
    return holderNameVerdict(value)
  }

  /** Shows or hides one field's error. While typing only hopeless input is flagged. */
  private show(field: Field, verdict: FieldVerdict, final: boolean): boolean {
    const input = this.inputs[field]
    const error = this.form.querySelector<HTMLElement>(`#${input.id}-error`)!
    const wrong = final ? !verdict.isValid : !verdict.isPotentiallyValid
    error.textContent = wrong ? (MESSAGES[field][verdict.rule!] ?? MESSAGES[field].default) : ''
    error.hidden = !wrong
    input.setAttribute('aria-invalid', String(wrong))
    return !wrong
  }

  private onTyping(field: Field): void {
    this.show(field, this.verdict(field), false)
  }

  private onNumberInput(): void {
    const input = this.inputs.number
    const atEnd = input.selectionStart === input.value.length
    input.value = formatCardNumber(input.value)
    if (atEnd) input.setSelectionRange(input.value.length, input.value.length)
    const brand = this.brand()
    this.brandLabel.textContent = brand ? BRAND_NAMES[brand.type] : ''
    const code = brand ? brand.code : undefined
    // A brand without a security code hides the field; otherwise it follows the brand's size and name.
    this.cvcField.hidden = code === null
    this.inputs.cvc.maxLength = code ? code.size : 4
    this.cvcLabel.textContent = code ? `Security code (${code.name}, ${code.size} digits)` : 'Security code'
    this.onTyping('number')
  }

  private onExpiryInput(): void {
    const input = this.inputs.expiry
    const digits = input.value.replace(/\D/g, '').slice(0, 4)
    // "4" means April: 04/...; two digits of month get the separator.
    const padded = /^[2-9]/.test(digits) ? `0${digits}`.slice(0, 4) : digits
    input.value = padded.length > 2 ? `${padded.slice(0, 2)}/${padded.slice(2)}` : padded
    this.onTyping('expiry')
  }
}
