/** The expiry fields' caret table, MM/YY as one field and month and year apart. */
import { describe, expect, it } from 'vitest'
import { editExpiry, editExpiryMonth, editExpiryYear, parseWholeExpiry, reformatExpiry } from '../src/edit-expiry.ts'
import { editOf, parseState, writeState } from './caret-notation.ts'
import { EXPIRY_TABLE } from './caret-tables.ts'

describe('editExpiry: the caret table (one MM/YY field)', () => {
  it.each(EXPIRY_TABLE)('%s + %o -> %s', (before, key, after) => {
    const result = editExpiry(parseState(before), editOf(key))
    expect(result && writeState(result.value, result.caret)).toBe(after)
  })

  it('re-formats an autofilled value without cutting a four-digit year to the century', () => {
    for (const filled of ['03/2030', '032030', '3/2030', '03/30']) {
      const result = reformatExpiry({ value: filled, selectionStart: filled.length, selectionEnd: filled.length })
      expect(writeState(result.value, result.caret), filled).toBe('03/30|')
    }
  })

  it('reads whole dates only', () => {
    expect(parseWholeExpiry('12/2030')).toBe('1230')
    expect(parseWholeExpiry('1/2')).toBeNull()
    expect(parseWholeExpiry('03/203')).toBeNull()
    expect(parseWholeExpiry('ab/cd')).toBeNull()
  })
})

describe('editExpiryMonth and editExpiryYear (month and year apart)', () => {
  it.each([
    ['|', { type: '4' }, '04|'],
    ['1|', { type: '2' }, '12|'],
    ['12|', { type: '1' }, null],
    ['1|', { type: 'x' }, null],
  ] as const)('month %s + %o -> %s', (before, key, after) => {
    const result = editExpiryMonth(parseState(before), editOf(key))
    expect(result && writeState(result.value, result.caret)).toBe(after)
  })

  it.each([
    ['20|', { type: '3' }, '203|'],
    ['2030|', { type: '1' }, null],
    ['20|30', 'Backspace', '2|30'],
  ] as const)('year %s + %o -> %s', (before, key, after) => {
    const result = editExpiryYear(parseState(before), editOf(key))
    expect(result && writeState(result.value, result.caret)).toBe(after)
  })
})
