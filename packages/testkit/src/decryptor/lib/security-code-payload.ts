import { DecryptionError } from '../errors.js'
import { GENERATION_TIME, parsePayloadObject } from './card-payload.js'

/** A saved card's security code as a code-only JWE carries it: nothing else. */
export interface DecryptedSecurityCode {
  /** 3 or 4 digits. */
  readonly cvc: string
  /** When the page encrypted the code, ISO 8601 UTC. */
  readonly generationtime: string
}

function invalid(detail: string): DecryptionError {
  return new DecryptionError('INVALID_CARD_DETAILS', detail)
}

/**
 * Parses the plaintext of a saved card's code-only JWE: exactly `cvc` and `generationtime`. Any
 * other field (a number, an expiry) is refused, named by field only: a code JWE carrying card data
 * is not a code JWE. `codeSize`, when given, is the saved card's brand's code length.
 */
export function parseSecurityCodePayload(plaintext: Uint8Array, codeSize?: 3 | 4): DecryptedSecurityCode {
  const fields = parsePayloadObject(plaintext)
  for (const name of Object.keys(fields)) {
    if (name !== 'cvc' && name !== 'generationtime') {
      // The name comes from the sender: cut, and only named when it looks like a field name.
      throw invalid(`${/^[A-Za-z]{1,32}$/.test(name) ? name : 'payload'}: a security-code JWE carries only cvc and generationtime`)
    }
  }
  const rule = codeSize === undefined ? /^[0-9]{3,4}$/ : new RegExp(`^[0-9]{${codeSize}}$`)
  if (typeof fields.cvc !== 'string' || !rule.test(fields.cvc)) {
    throw invalid(`cvc: must be ${codeSize === undefined ? '3 or 4' : codeSize} digits`)
  }
  if (typeof fields.generationtime !== 'string' || !GENERATION_TIME.test(fields.generationtime)) {
    throw invalid('generationtime: must be an ISO 8601 UTC timestamp')
  }
  return { cvc: fields.cvc, generationtime: fields.generationtime }
}
