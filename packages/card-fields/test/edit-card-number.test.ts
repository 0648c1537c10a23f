/**
 * The card number's caret table: (value, caret, key) -> (value, caret), written out by hand for
 * every gap of every brand's layout (4-8-12, Amex and Diners 4-10, 4-8-12-16 for 19 digits), then
 * a property over random numbers of every brand against a model of the rules.
 */
import { CARD_BRANDS, formatCardNumber } from 'card-jwe'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { editCardNumber, reformatCardNumber } from '../src/edit-card-number.ts'
import { editOf, parseState, writeState } from './caret-notation.ts'
import { NUMBER_TABLE } from './caret-tables.ts'

describe('editCardNumber: the caret table', () => {
  it.each(NUMBER_TABLE)('%s + %o -> %s', (before, key, after) => {
    const result = editCardNumber(parseState(before), editOf(key))
    expect(result && writeState(result.value, result.caret)).toBe(after)
  })

  it('re-formats autofill and IME text as it stands, the caret after the same digits', () => {
    const filled = reformatCardNumber({ value: '4111111111111111', selectionStart: 16, selectionEnd: 16 })
    expect(writeState(filled.value, filled.caret)).toBe('4111 1111 1111 1111|')
    const composed = reformatCardNumber({ value: '41111１1', selectionStart: 6, selectionEnd: 6 })
    expect(writeState(composed.value, composed.caret)).toBe('4111 11|1')
  })
})

/** A number of `length` digits starting with one of the brand's prefixes (Luhn does not matter here). */
const brandNumber = fc
  .constantFrom(...CARD_BRANDS)
  .chain((brand) =>
    fc.record({
      brand: fc.constant(brand),
      prefix: fc.constantFrom(...brand.patterns.map((p) => p.split('-')[0]!)),
      length: fc.constantFrom(...brand.lengths),
    }),
  )
  .chain(({ prefix, length }) =>
    fc.stringMatching(new RegExp(`^[0-9]{${Math.max(0, length - prefix.length)}}$`)).map((rest) => prefix + rest),
  )

// 500 runs each; generous limits so a busy machine does not fail them (they measure nothing).
const PROPERTY = { timeout: 60_000 }

describe('editCardNumber: every brand, every caret position (property)', () => {
  it('Backspace removes the digit before the caret, past any gap; the caret stays after the digits before it', PROPERTY, () => {
    fc.assert(
      fc.property(brandNumber, fc.nat(), (digits, at) => {
        const value = formatCardNumber(digits)
        const caret = at % (value.length + 1)
        const digitsBefore = value.slice(0, caret).replace(/\D/g, '').length
        const result = editCardNumber({ value, selectionStart: caret, selectionEnd: caret }, { kind: 'deleteBackward' })
        if (digitsBefore === 0) {
          expect(result).toBeNull()
          return
        }
        const expected = digits.slice(0, digitsBefore - 1) + digits.slice(digitsBefore)
        expect(result!.value.replace(/ /g, '')).toBe(expected)
        expect(result!.value.slice(0, result!.caret).replace(/ /g, '')).toBe(expected.slice(0, digitsBefore - 1))
      }),
      { numRuns: 500 },
    )
  })

  it('Delete removes the digit after the caret, past any gap; the caret does not move past a digit', PROPERTY, () => {
    fc.assert(
      fc.property(brandNumber, fc.nat(), (digits, at) => {
        const value = formatCardNumber(digits)
        const caret = at % (value.length + 1)
        const digitsBefore = value.slice(0, caret).replace(/\D/g, '').length
        const result = editCardNumber({ value, selectionStart: caret, selectionEnd: caret }, { kind: 'deleteForward' })
        if (digitsBefore === digits.length) {
          expect(result).toBeNull()
          return
        }
        const expected = digits.slice(0, digitsBefore) + digits.slice(digitsBefore + 1)
        expect(result!.value.replace(/ /g, '')).toBe(expected)
        expect(result!.value.slice(0, result!.caret).replace(/ /g, '')).toBe(expected.slice(0, digitsBefore))
      }),
      { numRuns: 500 },
    )
  })

  it('a digit typed anywhere lands there, the caret right after it; letters change nothing', PROPERTY, () => {
    fc.assert(
      fc.property(brandNumber, fc.nat(), fc.constantFrom(...'0123456789abc'), (full, at, key) => {
        const digits = full.slice(0, -1) // room for one more
        const value = formatCardNumber(digits)
        const caret = at % (value.length + 1)
        const digitsBefore = value.slice(0, caret).replace(/\D/g, '').length
        // Past the longest brand prefix (6 digits), so the digit cannot change the brand.
        fc.pre(digitsBefore >= 6)
        const result = editCardNumber({ value, selectionStart: caret, selectionEnd: caret }, { kind: 'insert', text: key })
        if (!/\d/.test(key)) {
          expect(result).toBeNull()
          return
        }
        const expected = digits.slice(0, digitsBefore) + key + digits.slice(digitsBefore)
        expect(result!.value).toBe(formatCardNumber(expected))
        expect(result!.value.slice(0, result!.caret).replace(/ /g, '')).toBe(expected.slice(0, digitsBefore + 1))
        // The caret never sits right after a gap it did not type: it follows the digit.
        expect(result!.value[result!.caret - 1]).toMatch(/\d/)
      }),
      { numRuns: 500 },
    )
  })
})
