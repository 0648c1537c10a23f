/** Digit handling shared by every formatted field: which characters count, and where the caret goes. */

// Full-width digits (U+FF10-FF19) are what a Japanese or Chinese IME gives for 0-9.
const FULL_WIDTH_DIGITS = /[\uFF10-\uFF19]/g

/** The ASCII digits of a text, full-width ones converted; everything else dropped. */
export function digitsOf(text: string): string {
  return text.replace(FULL_WIDTH_DIGITS, (d) => String.fromCharCode(d.charCodeAt(0) - 0xff10 + 0x30)).replace(/[^0-9]/g, '')
}

/** Where the caret goes in `formatted` to stand after its `count`-th digit; at the end after the last. */
export function positionAfterDigits(formatted: string, count: number): number {
  if (count <= 0) return 0
  let seen = 0
  for (let i = 0; i < formatted.length; i++) {
    if (formatted[i]! >= '0' && formatted[i]! <= '9' && ++seen === count) {
      // After the last digit the caret goes to the very end, past any separator shown there.
      return seen === digitsOf(formatted).length ? formatted.length : i + 1
    }
  }
  return formatted.length
}
