/**
 * Whatever a page holds or a shopper (or a script) puts in, the editors never throw, keep the caret
 * inside the text, leave only digits and their separators, and never grow a field past its most
 * digits (a deletion shortens what a script overfilled, but does not cut digits the shopper typed):
 * fast-check over arbitrary text, selections and edits.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  editCardNumber,
  editExpiry,
  editExpiryMonth,
  editExpiryYear,
  editSecurityCode,
  reformatCardNumber,
  reformatExpiry,
} from '../src/index.ts'
import type { EditResult, FieldEdit, FieldState } from '../src/index.ts'

const state = fc
  .string({ maxLength: 40 })
  .chain((value) =>
    fc
      .tuple(fc.nat(value.length), fc.nat(value.length))
      .map(([a, b]): FieldState => ({ value, selectionStart: Math.min(a, b), selectionEnd: Math.max(a, b) })),
  )
const edit: fc.Arbitrary<FieldEdit> = fc.oneof(
  fc.string({ maxLength: 30 }).map((text) => ({ kind: 'insert' as const, text })),
  fc.constant({ kind: 'deleteBackward' as const }),
  fc.constant({ kind: 'deleteForward' as const }),
)

// Node gives FUZZ_RUNS to lengthen the run; browsers have no process.
const FUZZ_RUNS = Number((globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.FUZZ_RUNS ?? 3000)

const digitCount = (text: string) => text.replace(/[^0-9\uFF10-\uFF19]/g, '').length

/** `shape`: the characters allowed; the digits at most `max`, or as many as `before` held. */
function wellFormed(result: EditResult | null, shape: RegExp, max: number, before: FieldState): void {
  if (result === null) return
  expect(result.value).toMatch(shape)
  expect(digitCount(result.value)).toBeLessThanOrEqual(Math.max(max, digitCount(before.value)))
  expect(result.caret).toBeGreaterThanOrEqual(0)
  expect(result.caret).toBeLessThanOrEqual(result.value.length)
}

describe('the editors on hostile input', () => {
  it('never throw, keep the caret inside, leave digits and separators only', { timeout: 300_000 }, () => {
    fc.assert(
      fc.property(state, edit, (s, e) => {
        wellFormed(editCardNumber(s, e), /^[0-9 ]*$/, 19, s)
        wellFormed(reformatCardNumber(s), /^[0-9 ]*$/, 19, { ...s, value: '' })
        wellFormed(editExpiry(s, e), /^[0-9]{0,2}(\/[0-9]*)?$/, 4, s)
        wellFormed(reformatExpiry(s), /^[0-9]{0,2}(\/[0-9]{0,2})?$/, 4, { ...s, value: '' })
        wellFormed(editExpiryMonth(s, e), /^[0-9]*$/, 2, s)
        wellFormed(editExpiryYear(s, e), /^[0-9]*$/, 4, s)
        wellFormed(editSecurityCode(s, e, 4), /^[0-9]*$/, 4, s)
      }),
      { numRuns: FUZZ_RUNS },
    )
  })
})
