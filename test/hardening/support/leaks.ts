/**
 * What counts as leaked card data in a log line or an answer (issue 8): any run of six or more
 * digits that appears in the input card number, and the security code or the expiry next to
 * their field names. Six digits is the issuer prefix; shorter runs occur in ports and timestamps.
 */
export function cardDigitRuns(number: string, length = 6): string[] {
  const digits = number.replace(/\D/g, '')
  const runs = new Set<string>()
  for (let i = 0; i + length <= digits.length; i++) runs.add(digits.slice(i, i + length))
  return [...runs]
}

/** True when `text` holds any six-digit run of `number`. */
export function leaksCardNumber(text: string, number: string): boolean {
  return cardDigitRuns(number).some((run) => text.includes(run))
}
