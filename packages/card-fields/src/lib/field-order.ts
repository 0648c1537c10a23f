import type { CardFieldName } from '../messages.js'

/** The order of the fields, as a form lays them out: auto-advance goes forward in it, `validate()` focuses the first error in it. */
export const FIELD_ORDER: readonly CardFieldName[] = Object.freeze([
  'number',
  'expiry',
  'expiryMonth',
  'expiryYear',
  'securityCode',
  'holderName',
])
