/**
 * Runs in the sandbox's ACS frame: fills the shopper's answer and submits, as the shopper would.
 * For WebKit, whose WebDriver cannot type into an element of a cross-origin frame ("Element is not
 * focusable") while a script in that frame works. False until the ACS page is there.
 */
export function submitAcsAnswer(value: string): boolean {
  const field = document.querySelector<HTMLInputElement>('#answer')
  if (!location.pathname.endsWith('/threeds/acs') || !field) return false
  field.value = value
  field.form!.requestSubmit()
  return true
}
