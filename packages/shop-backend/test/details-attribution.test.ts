import { describe, expect, it } from 'vitest'
import { answeredAttempt, fitsClaimHolder } from '../src/ledger/details-placement.js'
import { attempt } from './store-conformance.js'

// Two tabs on one order: attempt 1 waits at its step, attempt 2 (the latest) holds the claim and waits at its own.
const first = attempt('o1', 1, { state: 'action_required', pspReference: 'PSP-ONE' })
const second = attempt('o1', 2, { state: 'action_required', pspReference: 'PSP-TWO' })
const both = [first, second]

describe('which attempt a payment-details answer is about', () => {
  it('the one whose pspReference it carries, whichever holds the claim', () => {
    expect(answeredAttempt(both, second, { resultCode: 'Authorised', pspReference: 'PSP-ONE' })).toBe(first)
    expect(answeredAttempt(both, second, { resultCode: 'Authorised', pspReference: 'PSP-TWO' })).toBe(second)
  })

  it("without a name: a next step is the claim holder's; a final answer is left for the feed to name", () => {
    expect(answeredAttempt(both, second, { resultCode: 'ChallengeShopper', action: { type: 'threeDS2' } })).toBe(second)
    expect(answeredAttempt(both, second, { resultCode: 'Refused' })).toBeUndefined()
    const alone = [{ ...first, state: 'refused' as const }, second]
    expect(answeredAttempt(alone, second, { resultCode: 'Refused' })).toBeUndefined()
    expect(
      answeredAttempt(alone, { ...second, pspReference: undefined }, { resultCode: 'Authorised', pspReference: 'PSP-NEW' }),
    ).toBeUndefined()
    // After the feed's read, a final answer that is no payment yet may still go on the holder: only when no other attempt waits.
    expect(fitsClaimHolder(alone, second, { resultCode: 'Received' })).toBe(true)
    expect(fitsClaimHolder(both, second, { resultCode: 'Received' })).toBe(false)
  })

  it('a reference no attempt holds never goes onto one that holds another payment', () => {
    // Attempt 1's step was answered without its reference; the claim holder has its own.
    const unnamed = { ...first, pspReference: undefined }
    const step = { resultCode: 'ChallengeShopper', action: { type: 'threeDS2' }, pspReference: 'PSP-NEW' }
    expect(answeredAttempt([unnamed, second], second, step)).toBeUndefined()
    expect(answeredAttempt([unnamed, second], second, { resultCode: 'Authorised', pspReference: 'PSP-NEW' })).toBeUndefined()
    // A claim holder with no reference yet takes its own step's first reference, as before.
    const fresh = { ...second, pspReference: undefined }
    expect(answeredAttempt([unnamed, fresh], fresh, step)).toBe(fresh)
  })

  it('without a known reference, the attempt its echoed metadata names, unless that one holds another payment', () => {
    const echoed = (number: number) => ({ metadata: { shop_order_id: 'o1', shop_attempt: number } })
    expect(answeredAttempt(both, second, { resultCode: 'Refused', ...echoed(1) })).toBe(first)
    expect(answeredAttempt(both, second, { resultCode: 'Received', ...echoed(2) })).toBe(second)
    expect(answeredAttempt(both, second, { resultCode: 'Refused', pspReference: 'PSP-NEW', ...echoed(1) })).toBeUndefined()
    // Another order's metadata names nothing here.
    const elsewhere = { metadata: { shop_order_id: 'o2', shop_attempt: 1 } }
    expect(answeredAttempt(both, second, { resultCode: 'Refused', ...elsewhere })).toBeUndefined()
  })

  it('without a name, an answer of another amount never fits the claim holder; of its own amount, it may', () => {
    const alone = { ...second, pspReference: undefined }
    const taken = (value: number, currency = alone.amount.currency) => ({
      resultCode: 'Received',
      pspReference: 'PSP-NEW',
      amount: { currency, value },
    })
    expect(fitsClaimHolder([alone], alone, taken(alone.amount.value + 1))).toBe(false)
    expect(fitsClaimHolder([alone], alone, taken(alone.amount.value, 'XXX'))).toBe(false)
    expect(fitsClaimHolder([alone], alone, taken(alone.amount.value))).toBe(true)
    // Named by its reference, it goes there whatever its amount (the poller's AMOUNT_MISMATCH says it).
    expect(answeredAttempt(both, second, { ...taken(1), pspReference: 'PSP-ONE' })).toBe(first)
  })
})
