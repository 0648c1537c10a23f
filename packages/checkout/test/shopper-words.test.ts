/**
 * Every refusal code of the shop back end's checkout API, every final resultCode and the package's
 * own codes come out as words the shopper reads, of the right kind.
 */
import type { ShopBackendErrorCode } from '@card-jwe/shop-backend'
import { describe, expect, it } from 'vitest'
import { outcomeOf, WORDS_OF_CODE } from '../src/lib/outcome.js'
import { messages as EN } from '../src/locales/en.js'

/** Every code the back end answers with: the compiler fails here when one is added or removed. */
const BACK_END_CODES = Object.keys({
  NOT_FOUND: 1,
  METHOD_NOT_ALLOWED: 1,
  UNSUPPORTED_MEDIA_TYPE: 1,
  BODY_TOO_LARGE: 1,
  INVALID_BODY: 1,
  UNAUTHORIZED: 1,
  FORBIDDEN: 1,
  UNKNOWN_SETTING: 1,
  ORDER_NOT_FOUND: 1,
  ORDER_MISMATCH: 1,
  ORDER_INCOMPLETE: 1,
  PAGE_ORIGIN_MISMATCH: 1,
  STORED_PAYMENT_METHOD_UNKNOWN: 1,
  ORDER_NOT_PAYABLE: 1,
  ORDER_CHANGED: 1,
  NOT_AWAITING_DETAILS: 1,
  NOT_REGISTERED: 1,
  CARD_DATA_REFUSED: 1,
  PAYMENT_METHOD_UNSUPPORTED: 1,
  SERVICE_REFUSED: 1,
  SETUP_REFUSED: 1,
  SERVICE_UNREACHABLE: 1,
  OUTCOME_PENDING: 1,
  STORE_UNAVAILABLE: 1,
  MODIFICATION_NOT_ALLOWED: 1,
  MODIFICATION_REFUSED: 1,
  MODIFICATION_DISMISSED: 1,
  AMOUNT_NOT_ALLOWED: 1,
  REQUEST_ID_REUSED: 1,
  INVALID_INPUT: 1,
  SETUP_STEP_MISSING: 1,
  STORE_NOT_FOUND: 1,
  LEDGER_OF_ANOTHER_SHOP: 1,
  INTERNAL: 1,
} satisfies Record<ShopBackendErrorCode, 1>)

/** The package's own: the network, checkout-actions' ends of a challenge, Back from the bank. */
const OWN_CODES = ['OFFLINE', 'ERR_ABORTED', 'ERR_CHALLENGE_TIMEOUT', 'RETURNED_BACK']
/** The service's final resultCodes. */
const RESULT_CODES = ['Authorised', 'Refused', 'Cancelled', 'Pending', 'Received']

describe('the shopper’s words for each code', () => {
  it.each(BACK_END_CODES)('%s has words and leaves the shopper a way on', (code) => {
    const result = outcomeOf(code, EN)
    expect(Object.values(EN)).toContain(result.message)
    expect(result.code).toBe(code)
    expect(result.kind).toBe(code === 'OUTCOME_PENDING' ? 'pending' : 'retry')
  })

  it('names only real codes in its table (no typo falls back to the generic words)', () => {
    for (const code of Object.keys(WORDS_OF_CODE)) expect([...BACK_END_CODES, ...OWN_CODES, ...RESULT_CODES]).toContain(code)
  })

  it('says "not possible now" for every not-now code, and "your order changed" for every order code', () => {
    for (const code of ['SERVICE_UNREACHABLE', 'STORE_UNAVAILABLE', 'NOT_REGISTERED', 'PAGE_ORIGIN_MISMATCH'])
      expect(outcomeOf(code, EN).message).toBe(EN.unavailable)
    for (const code of ['ORDER_MISMATCH', 'ORDER_CHANGED', 'ORDER_NOT_FOUND', 'ORDER_INCOMPLETE'])
      expect(outcomeOf(code, EN).message).toBe(EN.order)
    expect(outcomeOf('CARD_DATA_REFUSED', EN).message).toBe(EN.card)
  })

  it('never says "no money was taken" for an error the payment may have outlived (a 5xx without a code)', () => {
    expect(outcomeOf('INTERNAL', EN)).toEqual({ kind: 'retry', message: EN.unavailable, code: 'INTERNAL' })
  })

  it.each([
    ['Authorised', 'paid', EN.paid],
    ['Refused', 'refused', EN.refused],
    ['Cancelled', 'retry', EN.notFinished],
    ['Pending', 'pending', EN.pending],
    ['Received', 'pending', EN.pending],
    ['Error', 'retry', EN.failed],
  ])('resultCode %s is %s', (code, kind, message) => {
    expect(outcomeOf(code, EN)).toEqual({ kind, message, code })
  })
})
