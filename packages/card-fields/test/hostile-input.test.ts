/**
 * Whatever a page holds or a shopper (or a script) puts in, the editors never throw, keep the caret
 * inside the text, and leave only digits and their separators: fast-check over arbitrary text,
 * selections and edits.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { editCardNumber, editExpiry, editExpiryMonth, editExpiryYear, editSecurityCode, reformatCardNumber, reformatExpiry } from '../src/index.ts'
import type { EditResult, FieldEdit, FieldState } from '../src/index.ts'

const state = fc.string({ maxLength: 40 }).chain((value) =>
  fc.tuple(fc.nat(value.length), fc.nat(value.length)).map(([a, b]): FieldState => ({ value, selectionStart: Math.min(a, b), selectionEnd: Math.max(a, b) })),
)
const edit: fc.Arbitrary<FieldEdit> = fc.oneof(
  fc.string({ maxLength: 30 }).map((text) => ({ kind: 'insert' as const, text })),
  fc.constant({ kind: 'deleteBackward' as const }),
  fc.constant({ kind: 'deleteForward' as const }),
)

function wellFormed(result: EditResult | null, allowed: RegExp): void {
  if (result === null) return
  expect(result.value).toMatch(allowed)
  expect(result.caret).toBeGreaterThanOrEqual(0)
  expect(result.caret).toBeLessThanOrEqual(result.value.length)
}

describe('the editors on hostile input', () => {
  it('never throw, keep the caret inside, leave digits and separators only', () => {
    fc.assert(
      fc.property(state, edit, (s, e) => {
        wellFormed(editCardNumber(s, e), /^[0-9 ]{0,23}$/)
        wellFormed(reformatCardNumber(s), /^[0-9 ]{0,23}$/)
        wellFormed(editExpiry(s, e), /^[0-9]{0,2}(\/[0-9]{0,2})?$/)
        wellFormed(reformatExpiry(s), /^[0-9]{0,2}(\/[0-9]{0,2})?$/)
        wellFormed(editExpiryMonth(s, e), /^[0-9]{0,2}$/)
        wellFormed(editExpiryYear(s, e), /^[0-9]{0,4}$/)
        wellFormed(editSecurityCode(s, e, 4), /^[0-9]{0,4}$/)
      }),
      { numRuns: 3000 },
    )
  })
})
