import type { FieldVerdict } from 'card-jwe'
import type { FieldMessages } from '../messages.js'

/**
 * Whether a field shows an error for its verdict. While the shopper types (`final` false) only
 * input that can never become valid is flagged, so a half-typed number is not scolded; after blur
 * or submit any value that is not valid is.
 */
export function isFlagged(verdict: FieldVerdict, final: boolean): boolean {
  return final ? !verdict.isValid : !verdict.isPotentiallyValid
}

/** The words for a flagged verdict: the broken rule's own message, else the field's `invalid`. */
export function errorMessage(verdict: FieldVerdict, messages: FieldMessages): string {
  return (verdict.rule && messages[verdict.rule]) ?? messages.invalid
}
