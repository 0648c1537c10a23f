/** Spaces (any Unicode space, so pasted numbers work) and dashes a shopper may type between digit groups. */
const SEPARATORS = /[\s-]+/g
const DIGITS_ONLY = /^[0-9]*$/

export function stripSeparators(value: string): string {
  return value.replace(SEPARATORS, '')
}

/** ASCII digits only: other Unicode digits are not card digits. */
export function isDigits(value: string): boolean {
  return DIGITS_ONLY.test(value)
}

/** Field values arrive from forms and JSON; anything that is not a string counts as empty. */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : ''
}
