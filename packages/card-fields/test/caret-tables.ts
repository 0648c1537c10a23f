/**
 * The caret tables: [before, key, after], states in the caret notation; after is null when the
 * key may change nothing. Replayed on the pure functions (Node and browsers) and key by key.
 */
import type { TableKey } from './caret-notation.ts'

/** The card number: every gap of every layout (4-8-12, Amex and Diners 4-10, Visa's 19 digits). */
export const NUMBER_TABLE: ReadonlyArray<readonly [string, TableKey, string | null]> = [
  // Visa, gaps after 4, 8, 12.
  ['|', { type: '4' }, '4|'],
  ['411|', { type: '1' }, '4111|'],
  ['4111|', { type: '1' }, '4111 1|'],
  ['41|11 1111', { type: '5' }, '415|1 1111 1'],
  ['4111 |1111', 'Backspace', '411|1 111'],
  ['4111 1111 |1111', 'Backspace', '4111 111|1 111'],
  ['4111 1111 1111 |1111', 'Backspace', '4111 1111 111|1 111'],
  ['4111| 1111', 'Delete', '4111| 111'],
  ['4111 1111| 1111', 'Delete', '4111 1111| 111'],
  ['4111 11|11', 'Delete', '4111 11|1'],
  ['4111 1|', 'Backspace', '4111|'],
  ['41|11', 'Backspace', '4|11'],
  ['|4111', 'Backspace', null],
  ['4111|', 'Delete', null],
  ['4111 11|11', { type: 'a' }, null],
  ['4111 1111|', { type: 'x' }, null],
  ['[4111] 1111', { type: '5' }, '5|111 1'],
  ['4111 [1111 1111] 1111', 'Backspace', '4111| 1111'],
  ['4[111 11]11', 'Delete', '4|11'],
  ['|', { paste: '4111-1111 1111 1111' }, '4111 1111 1111 1111|'],
  ['4111 |', { paste: ' 1111 ' }, '4111 1111|'],
  // Visa also has 19 digits: the last group grows (gaps after 4, 8, 12 only).
  ['4111 1111 1111 1111|', { type: '1' }, '4111 1111 1111 11111|'],
  ['4111 1111 1111 1111111|', { type: '1' }, null],
  // Mastercard, 16 digits at most.
  ['5555 3412 4444 1115|', { type: '1' }, null],
  ['5555 3412 4444 111|5', { type: '9' }, null],
  // American Express, gaps after 4 and 10, 15 digits.
  ['3782 82246|', { type: '3' }, '3782 822463|'],
  ['3782 822463|', { type: '1' }, '3782 822463 1|'],
  ['3782 |822463', 'Backspace', '378|8 22463'],
  ['3782 822463 |10005', 'Backspace', '3782 82246|1 0005'],
  ['3782 822463| 10005', 'Delete', '3782 822463| 0005'],
  ['3782 822463 10005|', { type: '1' }, null],
  // Diners Club, 14 digits, gaps after 4 and 10.
  ['3056 930902 |5904', 'Backspace', '3056 93090|5 904'],
  // Full-width digits from an IME count as digits.
  ['|', { paste: '４１１１' }, '4111|'],
]

/** One MM/YY expiry field. */
export const EXPIRY_TABLE: ReadonlyArray<readonly [string, TableKey, string | null]> = [
  ['|', { type: '0' }, '0|'],
  ['0|', { type: '3' }, '03/|'],
  ['03/|', { type: '3' }, '03/3|'],
  ['03/3|', { type: '0' }, '03/30|'],
  ['03/30|', { type: '1' }, null],
  // A month that cannot grow into 01-12 is completed.
  ['|', { type: '4' }, '04/|'],
  ['1|', { type: '3' }, '01/3|'],
  ['1|', { type: '2' }, '12/|'],
  // "1/30": the slash after one digit makes it the month.
  ['1|', { type: '/' }, '01/|'],
  ['01/|', { type: '3' }, '01/3|'],
  ['03/|', { type: '/' }, null],
  ['03/3|', { type: 'a' }, null],
  // Backspace next to the slash removes the month's last digit.
  ['03/|', 'Backspace', '0|'],
  ['03/3|', 'Backspace', '03/|'],
  ['03|/30', 'Delete', '03|/0'],
  ['0|3/30', 'Delete', '0|3/0'],
  ['03/3|0', { type: '1' }, null],
  // Autofill (cc-exp) and paste of a whole date, four-digit years included.
  ['|', { paste: '03/2030' }, '03/30|'],
  ['|', { paste: '032030' }, '03/30|'],
  ['|', { paste: '3/30' }, '03/30|'],
  ['|', { paste: '03 - 2031' }, '03/31|'],
  ['[01/29]', { paste: '12/2030' }, '12/30|'],
  ['|', { paste: '0330' }, '03/30|'],
]
