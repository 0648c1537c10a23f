import { textOf } from './text.js'

/** The security code as given: `securityCode`, or the deprecated `cvc` key when it is absent. */
export function securityCodeOf(input: { readonly securityCode?: unknown; readonly cvc?: unknown }): string {
  return textOf(input.securityCode ?? input.cvc)
}

/**
 * Our APIs say `securityCode`; the spec's card payload says `cvc`. This is the one place the one
 * becomes the other: an empty code is left out of the payload.
 */
export function payloadSecurityCode(code: string): { readonly cvc?: string } {
  return code === '' ? {} : { cvc: code }
}
